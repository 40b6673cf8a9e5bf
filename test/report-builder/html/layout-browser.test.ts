import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { groupDeltas } from '../../../src/report-builder/baseline.js'
import { renderHtmlReport } from '../../../src/report-builder/html/index.js'
import { runCli } from '../../helpers/cli-harness.js'
import { launchChromium } from './browser.js'
import { conformanceRecords, questionRecords, repairRecord, repairRecords, reportOf } from './report.fixture.js'

/** Where the screenshots go: look at them after a run (git-ignored). */
const OUTPUT = join(import.meta.dirname, '../..', '__output__', 'html-layout')
const WIDTHS = [1400, 800] as const

let work: string
let browser: Awaited<ReturnType<typeof launchChromium>>
const urls: Record<'vitest' | 'cli', string> = { vitest: '', cli: '' }

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-html-layout-'))
  // A Vitest run: repair with a group of one run, question suites, conformance, and a baseline to compare with.
  const records = [...repairRecords(), repairRecord('solo', 0, 0.7), ...questionRecords(), ...conformanceRecords()]
  const report = reportOf(records, { command: 'vitest' })
  const file = join(work, 'vitest.html')
  await writeFile(
    file,
    await renderHtmlReport(report, { baselineDeltas: groupDeltas(repairRecords(0.3), report), gateFailures: [] }),
  )
  urls.vitest = pathToFileURL(file).href
  // A real CLI run of one trial per agent: every group has n = 1.
  const run = await runCli(
    ['run', '--agent', 'baseline,noop,mock', '--dataset', 'synthetic', '--rows', '60', '--trials', '1', '--quiet'],
    work,
  )
  expect(run.code, run.stderr).toBe(0)
  urls.cli = pathToFileURL(join(work, 'reports', 'run', 'report.html')).href
  browser = await launchChromium()
  await mkdir(OUTPUT, { recursive: true })
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await rm(work, { recursive: true, force: true })
})

async function open(which: 'vitest' | 'cli', width: number): Promise<Page> {
  const page = await browser.context.newPage()
  await page.setViewportSize({ width, height: 900 })
  await page.goto(urls[which], { waitUntil: 'load' })
  return page
}

/** Layout facts read from the DOM: chart and container widths, overflow, lines per verdict cell. */
const layoutOf = (page: Page) =>
  page.$eval('html', (root) => {
    const doc = root.ownerDocument
    const win = doc.defaultView!
    const lines = (el: typeof root) => {
      const range = doc.createRange()
      range.selectNodeContents(el)
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size
    }
    const contentWidth = (el: typeof root) => {
      const style = win.getComputedStyle(el)
      return el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)
    }
    return {
      viewport: win.innerWidth,
      pageWidth: root.scrollWidth,
      charts: [...doc.querySelectorAll('figure.chart')].map((f) => {
        const shown = [...f.querySelectorAll('svg')].filter((svg) => svg.getBoundingClientRect().width > 0)
        return {
          id: f.id,
          shown: shown.length,
          width: shown[0]?.getBoundingClientRect().width ?? 0,
          container: contentWidth(f.parentElement!),
        }
      }),
      tables: [...doc.querySelectorAll('.scroll')].map((s) => ({
        id: s.querySelector('table')?.id || s.closest('section')!.id,
        overflow: s.scrollWidth - s.clientWidth,
      })),
      verdictLines: [...doc.querySelectorAll('td.verdict')].map((td) => ({
        text: td.textContent,
        lines: lines(td as typeof root),
      })),
    }
  })

/** The whole page, and each section on its own (a full page is too tall to read at once). */
async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(OUTPUT, `${name}.png`)
  const shot = await page.screenshot({ path, fullPage: true })
  expect(shot.length).toBeGreaterThan(10_000)
  for (const id of await page.$$eval('main > section', (sections) => sections.map((s) => s.id))) {
    await page.locator(`#${id}`).screenshot({ path: join(OUTPUT, `${name}-${id}.png`) })
  }
  console.info(`screenshots: ${path} and ${name}-<section>.png beside it`)
}

describe.each(['vitest', 'cli'] as const)('the %s report in headless Chromium', (which) => {
  it.each(WIDTHS)(
    'reads at %i px: charts fill the column, nothing overflows the page, verdicts on one line',
    async (width) => {
      const page = await open(which, width)
      try {
        await screenshot(page, `${which}-${width}`)
        const layout = await layoutOf(page)
        expect(layout.viewport).toBe(width)
        expect(layout.pageWidth).toBeLessThanOrEqual(width)
        expect(layout.charts.length).toBeGreaterThan(1)
        for (const c of layout.charts) {
          expect(c.shown, `${c.id}: one drawing shown`).toBe(1)
          expect(c.width / c.container, c.id).toBeGreaterThanOrEqual(0.9)
        }
        for (const v of layout.verdictLines) expect(v.lines, v.text ?? '').toBe(1)
        if (width === 1400)
          for (const t of layout.tables) expect(t.overflow, `${t.id} scrolls at ${width} px`).toBeLessThanOrEqual(0)
      } finally {
        await page.close()
      }
    },
    60_000,
  )
})

describe('what the report says about its own runs', () => {
  const legend = async (which: 'vitest' | 'cli') => {
    const page = await open(which, 1400)
    try {
      return {
        legend: (await page.locator('#leaderboard p.legend').allTextContents()).join(' '),
        units: await page.$$eval('#leaderboard table.units tbody tr', (rows) =>
          rows.map((r) => [...r.cells].map((c) => c.textContent)),
        ),
        head: await page.locator('#leaderboard-table thead th').allTextContents(),
        rows: await page.$$eval('#leaderboard-table tbody tr', (rows) =>
          rows.map((r) => ({
            group: r.getAttribute('data-group'),
            f1: r.cells[4]!.textContent,
            f1Interval: r.cells[5]!.textContent,
          })),
        ),
        verdicts: await page.locator('td.verdict').count(),
      }
    } finally {
      await page.close()
    }
  }

  it("states the Vitest door's rule, the units where trials repeat, and no spread for one run", async () => {
    const { legend: text, units, head, rows, verdicts } = await legend('vitest')
    expect(text).toContain(
      "Score is the share of attempted runs whose assertions held: in an eval file a run is correct when the eval's assertions passed",
    )
    expect(text).not.toContain('--pass-f1')
    expect(text).not.toContain('pass threshold')
    expect(text).toContain('Intervals follow the units')
    expect(units).toContainEqual([
      'baseline · synthetic',
      '1 case',
      '5',
      "interval over this one unit's trials, which says nothing of other cases",
    ])
    expect(head.slice(4, 7)).toEqual(['F1', 'F1 [95% CI]', 'Score: assertions held [95% CI]'])
    expect(rows.find((r) => r.group === 'solo · synthetic')).toEqual({
      group: 'solo · synthetic',
      f1: '0.757 (n = 1)',
      f1Interval: '— (n = 1)',
    })
    expect(rows.find((r) => r.group === 'baseline · synthetic')!.f1).toMatch(/^0\.\d{3} ± 0\.\d{3}$/)
    expect(verdicts).toBeGreaterThan(0)
  })

  it("states the CLI's rule with its --pass-f1, and no spread or interval for runs of one trial", async () => {
    const { legend: text, head, rows } = await legend('cli')
    expect(text).toContain('Score is the share of attempted runs whose F1 reached --pass-f1 (1).')
    expect(text).not.toContain('assertions')
    expect(head.slice(4, 7)).toEqual(['F1', 'F1 [95% CI]', 'Score: F1 ≥ 1 [95% CI]'])
    // ranked by F1, not by name or Score
    expect(rows.map((r) => r.group)).toEqual(['mock · synthetic', 'baseline · synthetic', 'noop · synthetic'])
    for (const r of rows) {
      expect(r.f1, r.group!).toMatch(/^\d\.\d{3} \(n = 1\)$/)
      expect(r.f1Interval, r.group!).toBe('— (n = 1)')
    }
  })
})
