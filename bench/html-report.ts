/**
 * The HTML report on 1,000 repair records, each with wrong and missed cells, as ten agents × 100 trials and as
 * 100 agents × 10 trials (a leaderboard of 100 rows and charts with 100 groups):
 * 1. building the page (`renderHtmlReport`: Vega-Lite compile + Vega SVG render), first call and warm;
 * 2. its size (goal: under 2 MB; also asserted in test/html/render.test.ts);
 * 3. opening it from file:// in Debian's headless Chromium until the load event (goal: under 2 s).
 * Run alone: `npx jiti bench/html-report.ts`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { renderHtmlReport } from '../src/report-builder/html/index.js'
import { launchChromium } from '../test/report-builder/html/browser.js'
import { manyRecords, reportOf } from '../test/report-builder/html/report.fixture.js'
import { median } from './median.js'

const RECORDS = 1_000
const OPENS = 7

export default async function run(): Promise<string> {
  return [await measure(10), await measure(100)].join('\n')
}

async function measure(agents: number): Promise<string> {
  const report = reportOf(manyRecords(RECORDS, agents))
  let start = performance.now()
  const html = await renderHtmlReport(report)
  const firstMs = performance.now() - start
  const warm: number[] = []
  for (let i = 0; i < 5; i++) {
    start = performance.now()
    await renderHtmlReport(report)
    warm.push(performance.now() - start)
  }
  const bytes = Buffer.byteLength(html)

  const dir = await mkdtemp(join(tmpdir(), 'dataforge-bench-html-'))
  const browser = await launchChromium()
  const opens: number[] = []
  try {
    const file = join(dir, 'report.html')
    await writeFile(file, html)
    for (let i = 0; i < OPENS; i++) {
      const page = await browser.context.newPage()
      start = performance.now()
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
      opens.push(performance.now() - start)
      await page.close()
    }
  } finally {
    await browser.close()
    await rm(dir, { recursive: true, force: true })
  }
  const open = median(opens)
  return [
    `## HTML report (${RECORDS.toLocaleString('en-US')} repair records in ${report.aggregates.length} groups)`,
    '',
    '| benchmark | result | goal | status |',
    '| --- | --- | --- | --- |',
    `| build the page, first call (the first in a process also loads Vega) | ${(firstMs / 1000).toFixed(2)} s | — | — |`,
    `| build the page, warm (median of 5) | ${(median(warm) / 1000).toFixed(2)} s | — | — |`,
    `| size | ${(bytes / 2 ** 20).toFixed(2)} MiB (${bytes.toLocaleString('en-US')} bytes) | < 2 MB | ${bytes < 2_000_000 ? 'met' : 'MISSED'} |`,
    `| open from file:// in headless Chromium to the load event (median of ${OPENS}, fresh tab each) | ${(open / 1000).toFixed(2)} s (${(Math.min(...opens) / 1000).toFixed(2)}–${(Math.max(...opens) / 1000).toFixed(2)} s) | < 2 s | ${open < 2000 ? 'met' : 'MISSED'} |`,
    '',
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`)
