// biome-ignore-all lint/performance/useDomNodeTextContent: the text as the browser renders it (hidden rows, line breaks) is what these tests read
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { groundTruthOf } from '../../src/core/ground-truth.js'
import { loadDataset } from '../../src/datasets/load.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { launchChromium } from '../report-builder/html/browser.js'
import {
  FAKE_KEY,
  HOSTILE_ANSI,
  HOSTILE_CATEGORY,
  HOSTILE_HTML,
  HOSTILE_MARKDOWN,
  writeFixtureReport,
} from './fixture.js'
import { type ServedView, startView } from './serve-helper.js'

let browser: Awaited<ReturnType<typeof launchChromium>>
beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

/** A page that records script errors and CSP refusals, so the test can say none happened. */
async function openPage(width = 1400): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.context.newPage()
  await page.setViewportSize({ width, height: 900 })
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  return { page, problems }
}

const visibleRows = (page: Page) => page.locator('#runs tbody tr:visible')

async function hostileInert(page: Page): Promise<void> {
  expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  // Only the viewer's own script and no image from an agent's markup.
  expect(await page.locator('main script:not(#runs-data), main img').count()).toBe(0)
  expect(await page.locator('script:not(#runs-data)').count()).toBe(1)
}

describe('view: the served viewer in Chromium', () => {
  it('shows transcripts, graded cells and verdicts, filters, keys, the --against changes, and keeps hostile strings inert', async () => {
    await withTempDir(async (dir) => {
      await writeFixtureReport(join(dir, 'base'), {
        agent: 'fixer',
        rightFixes: 3,
        answer: 'The total is 41.',
        questionCorrect: false,
      })
      await writeFixtureReport(join(dir, 'cand'), {
        agent: 'fixer-v2',
        rightFixes: 5,
        answer: 'The total is 42.',
        questionCorrect: true,
      })
      const view: ServedView = await startView(['cand', '--port', '0', '--against', 'base', '--show-expected'], dir, {
        OPENAI_API_KEY: FAKE_KEY,
      })
      try {
        expect(view.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
        const { page, problems } = await openPage()
        await page.goto(view.url)

        // The index: four runs, the filters, the changes against the baseline.
        await expect.poll(() => visibleRows(page).count()).toBe(4)
        await page.selectOption('#f-s', 'failed')
        expect(await visibleRows(page).count()).toBe(1)
        expect(await visibleRows(page).first().innerText()).toContain('timeout')
        await page.selectOption('#f-s', '')
        await page.selectOption('#f-k', 'timeout')
        expect(await visibleRows(page).count()).toBe(1)
        await page.selectOption('#f-k', '')
        await page.selectOption('#f-g', 'fixer-v2@model-small · shop-questions · shop')
        expect(await visibleRows(page).count()).toBe(1)
        await page.selectOption('#f-g', '')
        // A category that tries to close the runs' JSON block: one group like any other, drawn as text.
        const hostileGroup = `fixer-v2@model-small · conformance · people · ${HOSTILE_CATEGORY}`
        expect(await page.locator('#f-g option').allTextContents()).toContain(hostileGroup)
        await page.selectOption('#f-g', hostileGroup)
        expect(await visibleRows(page).locator('td').nth(1).textContent()).toBe(hostileGroup)
        await page.selectOption('#f-g', '')
        await hostileInert(page)
        const columns = await page.locator('#f-c option').allInnerTexts()
        expect(columns.length).toBeGreaterThan(1)
        await page.selectOption('#f-c', columns[1]!)
        expect(await visibleRows(page).count()).toBe(1)
        await page.selectOption('#f-c', '')
        await page.fill('#f-q', 'total-sales')
        await expect.poll(() => visibleRows(page).count()).toBe(1)
        expect(await page.locator('#f-count').innerText()).toBe('1 of 4 runs')
        await page.fill('#f-q', '')
        const changed = await page.locator('#changes tbody tr').allInnerTexts()
        expect(changed.find((t) => t.includes('synthetic · synthetic'))).toMatch(/better\s+2\s*$/) // two cells wrong → right
        expect(changed.find((t) => t.includes('total-sales'))).toMatch(/incorrect\s+correct\s+better.*changed/s)

        // Keys on the index: j, j, Enter opens the second run.
        await page.locator('body').click({ position: { x: 5, y: 300 } })
        await page.keyboard.press('j')
        await page.keyboard.press('j')
        await expect.poll(() => page.locator('#runs tr.current').count()).toBe(1)
        await Promise.all([page.waitForURL(/\/runs\/1$/), page.keyboard.press('Enter')])

        // A question run: the answer, the grader's verdict, the baseline's answer beside it.
        expect(await page.locator('#answer ~ pre').first().innerText()).toBe('The total is 42.')
        const against = await page.locator('#against').evaluate((h) => h.parentElement!.innerText)
        expect(against).toContain('The answer changed.')
        expect(against).toContain('The total is 41.')

        // Keys on a run page: k goes back, j forward.
        await Promise.all([page.waitForURL(/\/runs\/0$/), page.keyboard.press('k')])

        // The repair run: every verdict, dirty and agent values, the expected column (served, asked for).
        const cells = page.locator('#cells-table')
        const header = await cells.locator('thead').innerText()
        expect(header).toMatch(/row\s+column\s+dirty value\s+agent's value\s+expected\s+verdict/)
        const verdicts = new Set(
          await page
            .locator('#cells-table tbody tr')
            .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verdict'))),
        )
        expect([...verdicts].sort()).toEqual(['missed', 'over-repair', 'right', 'wrong cell', 'wrong value'])
        expect(await page.locator('#cells-table tbody tr:visible').count()).toBe(50) // paged
        const wrongRow = page.locator('#cells-table tbody tr[data-verdict="wrong value"]')
        expect(await wrongRow.locator('td').nth(3).innerText()).toBe(HOSTILE_HTML)
        const { task } = await loadDataset({ id: 'synthetic', seed: 7 })
        const c = groundTruthOf(task).corrections[5]! // the wrong value's cell: its dirty and clean value, served only
        expect(await wrongRow.locator('td').nth(2).innerText()).toBe(c.dirty)
        expect(await wrongRow.locator('td').nth(4).innerText()).toBe(c.clean)
        const over = await page.locator('#cells-table tbody tr[data-verdict="over-repair"] td').nth(3).innerText()
        expect(over).toBe(
          `${HOSTILE_MARKDOWN} ${HOSTILE_ANSI.replaceAll('\u001b', '\u241b').replace('\u0007', '\\u0007')}`,
        )
        expect(await page.locator('main strong:has-text("bold")').count()).toBe(0)
        // Cells flipped against the baseline.
        expect(await page.locator('#against').evaluate((h) => h.parentElement!.innerText)).toContain(
          '0 cells right → wrong · 2 wrong → right',
        )

        // The transcript: messages, tool calls with arguments, the streamed answer, cache and tokens, agent tools.
        // textContent: calls out of view are not laid out (content-visibility: auto), so innerText skips them.
        const transcript = (await page.locator('main').textContent())!
        expect(transcript).toContain(`Fix this table. ${HOSTILE_HTML}`)
        expect(transcript).toContain('{"query":"SELECT city FROM t"}')
        expect(transcript).toContain('Streamed repair answer **bold**')
        expect(transcript).toMatch(/call 2\s*cached/)
        expect(transcript).toContain('100 in · 20 out tokens')
        expect(transcript).toContain('name,city\nAda,Bostn')
        expect(transcript).toContain('a message of 90,000 characters was cut to 20,000')
        await hostileInert(page)

        // The failed run: its failure and why it has no transcript.
        await page.goto(`${view.url}runs/3`)
        const failed = await page.locator('main').innerText()
        expect(failed).toContain('timeout')
        expect(failed).toContain(`timed out after 5 s ${HOSTILE_HTML}`)
        expect(failed).toContain(
          'No transcript: The record names transcript t-gone, but transcripts.jsonl has no line with that id.',
        )
        await hostileInert(page)

        // The conformance run: its metrics, the same layout.
        await page.goto(`${view.url}runs/2`)
        expect(await page.locator('main').innerText()).toMatch(/conformanceScore\s+0\.9100/)

        // Readable at 800 px: nothing wider than the window.
        for (const path of ['', 'runs/0']) {
          const narrow = await openPage(800)
          await narrow.page.goto(`${view.url}${path}`)
          expect(
            await narrow.page.evaluate(
              () =>
                (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
                  .documentElement.scrollWidth,
            ),
          ).toBeLessThanOrEqual(800)
          expect(narrow.problems.join('\n')).toBe('')
          await narrow.page.close()
        }

        // The folder changes (a watch-mode run writes again): the open page reloads with the new runs.
        await page.goto(view.url)
        const runsFile = join(dir, 'cand', 'runs.jsonl')
        const lines = (await readFile(runsFile, 'utf8')).trim().split('\n')
        await writeFile(runsFile, `${[...lines, lines[2]].join('\n')}\n`)
        await expect.poll(() => page.locator('#f-count').innerText(), { timeout: 15_000 }).toBe('5 of 5 runs')

        // No key anywhere: pages as served.
        for (const path of ['', 'runs/0', 'runs/1', 'runs/3'])
          expect(await (await fetch(`${view.url}${path}`)).text()).not.toContain(FAKE_KEY)
        expect(problems.join('\n')).toBe('')
        await page.close()
      } finally {
        const stopped = await view.stop()
        expect(stopped.code).toBe(0)
      }
    })
  }, 120_000)

  it('--export writes the same pages as a static site that works from file://, without expected values', async () => {
    await withTempDir(async (dir) => {
      await writeFixtureReport(join(dir, 'base'), { agent: 'fixer', rightFixes: 3 })
      await writeFixtureReport(join(dir, 'cand'), {
        agent: 'fixer-v2',
        rightFixes: 5,
        answer: 'The total is 42.',
        questionCorrect: true,
      })
      const refused = await runCli(['view', 'cand', '--export', 'site', '--show-expected'], dir)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toBe(
        'dataforge-evals: --show-expected shows expected values on served pages only; an --export never holds them\n',
      )
      const res = await runCli(['view', 'cand', '--export', 'site', '--against', 'base'], dir, {
        OPENAI_API_KEY: FAKE_KEY,
      })
      expect(res.stderr).toBe('')
      expect(res.code).toBe(0)
      expect(res.stdout).toBe('wrote site: 5 pages (open site/index.html)\n')
      expect((await readdir(join(dir, 'site', 'runs'))).sort()).toEqual(['0.html', '1.html', '2.html', '3.html'])
      for (const name of ['index.html', 'runs/0.html', 'runs/1.html', 'runs/3.html']) {
        const html = await readFile(join(dir, 'site', name), 'utf8')
        expect(html).not.toContain(FAKE_KEY)
        expect(html).toContain('<body data-live="0">')
        expect(html).toContain("connect-src 'none'")
      }
      const { page, problems } = await openPage()
      await page.goto(pathToFileURL(join(dir, 'site', 'index.html')).href)
      await page.selectOption('#f-s', 'correct')
      expect(await visibleRows(page).count()).toBe(2)
      await page.selectOption('#f-s', '')
      await Promise.all([page.waitForURL(/runs\/0\.html$/), page.locator('#runs a').first().click()])
      expect(await page.locator('#cells-table thead').innerText()).not.toContain('expected')
      expect(await page.locator('main').textContent()).toContain('Streamed repair answer')
      await hostileInert(page)
      await Promise.all([page.waitForURL(/runs\/1\.html$/), page.keyboard.press('ArrowRight')])
      await Promise.all([page.waitForURL(/index\.html/), page.keyboard.press('u')])
      expect(problems.join('\n')).toBe('')
      await page.close()
    })
  }, 120_000)
})
