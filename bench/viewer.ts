/**
 * The run viewer (`dataforge-evals view`) on a report of 10,000 runs (repair, question, conformance and failed runs
 * from the viewer's test fixture, repeated), one of them with a transcript of 200 model calls:
 * 1. reading the report (`site.load`: records checked with zod, transcripts parsed);
 * 2. the index: its size, and from navigation in headless Chromium until its script has run (filters and pages
 *    live: "interactive"; goal < 1 s), then one filter applied over all 10,000 rows;
 * 3. the 200-call trial page: built by the server, and from navigation to its load event (goal < 300 ms).
 * Run alone: `npx jiti bench/viewer.ts`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RunRecord } from '../src/core/run-record.js'
import { serveViewer } from '../src/viewer/server.js'
import { launchChromium } from '../test/report-builder/html/browser.js'
import { longTranscript, writeFixtureReport, writeReportFiles } from '../test/viewer/fixture.js'
import { median } from './median.js'

const RUNS = 10_000
const CALLS = 200
const OPENS = 7

export default async function run(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dataforge-bench-viewer-'))
  const browser = await launchChromium()
  try {
    const four = await writeFixtureReport(join(dir, 'seed'))
    const records: RunRecord[] = []
    for (let i = 0; records.length < RUNS; i++) {
      for (const r of four)
        records.push({
          ...r,
          agent: `agent-${i % 10}`,
          trial: Math.floor(i / 10),
          transcriptId: r.transcriptId === 't-repair' ? 't-long' : r.transcriptId,
        })
    }
    const seedTranscripts = (await readFile(join(dir, 'seed', 'transcripts.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    await writeReportFiles(join(dir, 'big'), 'report', records.slice(0, RUNS), [
      ...seedTranscripts,
      longTranscript('t-long', CALLS),
    ])

    let start = performance.now()
    const viewer = await serveViewer({ path: join(dir, 'big'), port: 0 })
    const loadMs = performance.now() - start
    try {
      start = performance.now()
      const indexBytes = Buffer.byteLength(viewer.site.indexHtml())
      const indexBuildMs = performance.now() - start
      const renders: number[] = []
      for (let i = 0; i < OPENS; i++) {
        start = performance.now()
        await viewer.site.runHtml(0)
        renders.push(performance.now() - start)
      }
      const pageBytes = Buffer.byteLength(await viewer.site.runHtml(0))

      const interactive: number[] = []
      const filters: number[] = []
      const trialLoads: number[] = []
      for (let i = 0; i < OPENS; i++) {
        const page = await browser.context.newPage()
        start = performance.now()
        await page.goto(viewer.url, { waitUntil: 'load' })
        await page.waitForFunction(() =>
          (
            globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
          ).document
            .getElementById('f-count')
            ?.textContent?.includes(' of '),
        )
        interactive.push(performance.now() - start)
        start = performance.now()
        await page.selectOption('#f-s', 'failed')
        await page.waitForFunction(() =>
          (
            globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
          ).document
            .getElementById('f-count')
            ?.textContent?.startsWith('2500 '),
        )
        filters.push(performance.now() - start)
        start = performance.now()
        await page.goto(`${viewer.url}runs/0`, { waitUntil: 'load' })
        trialLoads.push(performance.now() - start)
        await page.close()
      }
      const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))} ms`
      const ms = (x: number) => `${Math.round(x)} ms`
      return [
        `## Run viewer (${RUNS.toLocaleString('en-US')} runs; a trial page of ${CALLS} model calls)`,
        '',
        '| benchmark | result | goal | status |',
        '| --- | --- | --- | --- |',
        `| read the report (records checked, transcripts parsed) | ${ms(loadMs)} | — | — |`,
        `| index: built by the server (once per read of the folder), its size | ${ms(indexBuildMs)}, ${(indexBytes / 2 ** 20).toFixed(2)} MiB | — | — |`,
        `| index: navigation to filters and pages live in headless Chromium (median of ${OPENS}) | ${ms(median(interactive))} (${range(interactive)}) | < 1 s | ${median(interactive) < 1000 ? 'met' : 'MISSED'} |`,
        `| index: one filter over all rows (median of ${OPENS}) | ${ms(median(filters))} (${range(filters)}) | — | — |`,
        `| ${CALLS}-call trial page: built by the server (median of ${OPENS}; ${(pageBytes / 1024).toFixed(0)} KiB) | ${ms(median(renders))} | — | — |`,
        `| ${CALLS}-call trial page: navigation to the load event (median of ${OPENS}) | ${ms(median(trialLoads))} (${range(trialLoads)}) | < 300 ms | ${median(trialLoads) < 300 ? 'met' : 'MISSED'} |`,
        '',
      ].join('\n')
    } finally {
      await viewer.close()
    }
  } finally {
    await browser.close()
    await rm(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`)
