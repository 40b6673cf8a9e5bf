import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { leaderboardOrder } from '../../../src/report-builder/aggregate.js'
import { renderHtmlReport } from '../../../src/report-builder/html/index.js'
import { runCli } from '../../helpers/cli-harness.js'
import { launchChromium } from './browser.js'
import { fullReport } from './report.fixture.js'

/** Where the screenshot goes: look at it after a run (git-ignored). */
const OUTPUT = join(import.meta.dirname, '../..', '__output__', 'html-report')

const { report, baselineDeltas } = fullReport()
let dir: string
let url: string
let browser: Awaited<ReturnType<typeof launchChromium>>
let page: Page
const requests: string[] = []
const consoleErrors: string[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dataforge-html-'))
  const file = join(dir, 'report.html')
  await writeFile(
    file,
    await renderHtmlReport(report, { baselineDeltas, gateFailures: ['baseline · synthetic: f1 0.693 < 0.8'] }),
  )
  url = pathToFileURL(file).href
  browser = await launchChromium()
  browser.context.on('request', (r) => requests.push(r.url()))
  page = await browser.context.newPage()
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`))
  await page.goto(url, { waitUntil: 'load' })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await rm(dir, { recursive: true, force: true })
})

/** Every chart's id, whether it holds an SVG, and which of its expected groups have no mark. */
const chartsOf = (p: Page) =>
  p.$$eval('figure.chart', (figures) =>
    figures.map((f) => {
      const field = f.getAttribute('data-mark-field')!
      const expected = JSON.parse(f.getAttribute('data-marks-for')!) as string[]
      const labels = [...f.querySelectorAll('svg .role-mark [aria-label]')].map((m) => m.getAttribute('aria-label')!)
      const missing = expected.filter((g) => !labels.some((l) => l.split('; ').includes(`${field}: ${g}`)))
      const box = f.querySelector('svg')?.getBoundingClientRect()
      return {
        id: f.id,
        svg: Boolean(f.querySelector(':scope > .svg > svg')),
        expected: expected.length,
        missing,
        width: box?.width ?? 0,
        height: box?.height ?? 0,
      }
    }),
  )

const groupsInOrder = (p: Page) =>
  p.$$eval('#leaderboard-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-group')))

describe('report.html in headless Chromium', () => {
  it('loads from file:// with no console error and no request but the page itself', async () => {
    expect(await page.title()).toBe('dataforge-evals report')
    expect(consoleErrors).toEqual([])
    expect(requests).toEqual([url])
  })

  it('shows one leaderboard row per group, repair groups by F1 within their dataset', async () => {
    expect(await groupsInOrder(page)).toEqual(leaderboardOrder(report.aggregates).map((a) => a.group))
    const synthetic = (await groupsInOrder(page)).filter((g) => g?.endsWith('· synthetic'))
    expect(synthetic).toEqual(['mock · synthetic', 'baseline · synthetic', 'noop · synthetic'])
  })

  it('sorts by F1 when its header is clicked (best first, then reversed), groups without F1 last', async () => {
    const f1 = new Map(report.aggregates.map((a) => [a.group, a.f1Mean]))
    const withF1 = report.aggregates.filter((a) => a.f1Mean !== null)
    const withoutF1 = report.aggregates.filter((a) => a.f1Mean === null).map((a) => a.group)
    await page.getByRole('button', { name: 'F1', exact: true }).click()
    const descending = await groupsInOrder(page)
    expect(descending).toEqual([...[...withF1].sort((a, b) => b.f1Mean! - a.f1Mean!).map((a) => a.group), ...withoutF1])
    expect(descending.slice(0, 2)).toEqual(['mock · synthetic', 'baseline · hospital'])
    const f1Header = page
      .locator('#leaderboard-table thead th')
      .filter({ has: page.getByRole('button', { name: 'F1', exact: true }) })
    expect(await f1Header.getAttribute('aria-sort')).toBe('descending')
    await page.getByRole('button', { name: 'F1', exact: true }).click()
    const ascending = await groupsInOrder(page)
    expect(ascending.filter((g) => f1.get(g!) !== null)).toEqual(
      [...descending.filter((g) => f1.get(g!) !== null)].reverse(),
    )
    expect(ascending.slice(-withoutF1.length)).toEqual(withoutF1)
  })

  it('filters the leaderboard as you type', async () => {
    await page.getByRole('searchbox', { name: 'filter the leaderboard' }).fill('synthetic')
    const visible = await page.$$eval('#leaderboard-table tbody tr:not([hidden])', (rows) =>
      rows.map((r) => r.getAttribute('data-group')),
    )
    expect(visible.sort()).toEqual(['baseline · synthetic', 'mock · synthetic', 'noop · synthetic'])
    await page.getByRole('searchbox', { name: 'filter the leaderboard' }).fill('')
    expect(await page.locator('#leaderboard-table tbody tr:not([hidden])').count()).toBe(report.aggregates.length)
  })

  it('draws every chart as an SVG with marks for each of its groups', async () => {
    const charts = await chartsOf(page)
    expect(charts.map((c) => c.id)).toEqual(
      expect.arrayContaining(['baseline-deltas', 'category-grid', 'pareto', 'conformance-0-sentiment']),
    )
    // conformance, questions, synthetic; hospital has one group, which a chart would not compare with anything
    expect(charts.filter((c) => c.id.startsWith('score-'))).toHaveLength(3)
    expect(charts.filter((c) => c.id.startsWith('kinds-'))).toHaveLength(2) // hospital, synthetic
    for (const c of charts) {
      expect(c, c.id).toMatchObject({ svg: true, missing: [] })
      expect(c.expected, c.id).toBeGreaterThan(0)
      expect(c.width * c.height, c.id).toBeGreaterThan(0)
    }
  })

  it('writes a screenshot to the test output folder', async () => {
    await mkdir(OUTPUT, { recursive: true })
    const shot = await page.screenshot({ path: join(OUTPUT, 'report.png'), fullPage: true })
    expect(shot.length).toBeGreaterThan(10_000)
    await page.locator('#leaderboard-table').screenshot({ path: join(OUTPUT, 'leaderboard.png') })
  })

  it('reads without JavaScript: the full table and every chart, no sort buttons', async () => {
    const plain = await launchChromium({ javaScriptEnabled: false })
    try {
      const p = await plain.context.newPage()
      await p.goto(url)
      expect(await groupsInOrder(p)).toEqual(leaderboardOrder(report.aggregates).map((a) => a.group))
      expect(await p.locator('#leaderboard-table th button').count()).toBe(0)
      expect(await p.locator('figure.chart svg').count()).toBeGreaterThan(8)
      expect(await p.locator('.gate.fail li').allTextContents()).toEqual(['baseline · synthetic: f1 0.693 < 0.8'])
    } finally {
      await plain.close()
    }
  })
})

describe('report.html of a real CLI run in headless Chromium', () => {
  it('opens with no console error or request, one row per group and marks for every group', async () => {
    const work = await mkdtemp(join(tmpdir(), 'dataforge-html-run-'))
    try {
      const run = await runCli(
        ['run', '--agent', 'baseline,noop,mock', '--dataset', 'synthetic', '--rows', '60', '--trials', '2', '--quiet'],
        work,
      )
      expect(run.code, run.stderr).toBe(0)
      const fileUrl = pathToFileURL(join(work, 'reports', 'run', 'report.html')).href
      const seen: string[] = []
      const errors: string[] = []
      const p = await browser.context.newPage()
      p.on('request', (r) => seen.push(r.url()))
      p.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text())
      })
      p.on('pageerror', (e) => errors.push(e.message))
      await p.goto(fileUrl)
      expect(errors).toEqual([])
      expect(seen).toEqual([fileUrl])
      expect(await groupsInOrder(p)).toEqual(['mock · synthetic', 'baseline · synthetic', 'noop · synthetic']) // by F1
      const charts = await chartsOf(p)
      expect(charts.map((c) => c.id)).toEqual(['score-0-synthetic', 'kinds-0-synthetic'])
      for (const c of charts) expect(c, c.id).toMatchObject({ svg: true, expected: 3, missing: [] })
      await p.close()
    } finally {
      await rm(work, { recursive: true, force: true })
    }
  }, 60_000)
})
