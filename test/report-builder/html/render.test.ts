import { describe, expect, it } from 'vitest'
import { emptyUsage } from '../../../src/core/usage.js'
import { conformanceMetrics, evaluateConformanceSync } from '../../../src/grading/conformance/index.js'
import { renderHtmlReport } from '../../../src/report-builder/html/index.js'
import { leaderboardOrder } from '../../../src/report-builder/aggregate.js'
import { paretoPoints } from '../../../src/report-builder/html/pareto.js'
import { verdictLabel } from '../../../src/report-builder/comparison-verdict.js'
import { failedRecord, makeRecord } from '../../helpers/stats-records.js'
import {
  CLEAN_SECRET,
  conformanceRecords,
  fullReport,
  manyRecords,
  questionRecords,
  repairRecords,
  reportOf,
} from './report.fixture.js'
import { expectSelfContainedHtml } from '../../helpers/html-self-contained.js'

function sectionIds(html: string): string[] {
  return [...html.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]!)
}

describe('renderHtmlReport', () => {
  it('renders every section when repair, question, conformance and baseline data are present', async () => {
    const { report, baselineDeltas } = fullReport()
    const html = await renderHtmlReport(report, { baselineDeltas, gateFailures: [] })
    expect(sectionIds(html)).toEqual([
      'leaderboard',
      'scores',
      'baseline',
      'kinds',
      'columns',
      'questions',
      'conformance',
      'failures',
      'reproducibility',
    ])
    expect(html).toContain('Gate passed')
    const rows = [...html.matchAll(/<tr data-group="([^"]+)"/g)].map((m) => m[1])
    expect(rows).toEqual(leaderboardOrder(report.aggregates).map((a) => a.group))
    // the three charts of the question section and the conformance bars
    for (const id of ['category-grid', 'pareto', 'baseline-deltas', 'conformance-0-sentiment'])
      expect(html).toContain(`<figure class="chart" id="${id}"`)
  })

  it('reports a run whose every repair trial failed as failed trials, with no question section', async () => {
    const failed = [0, 1].map((trial) =>
      failedRecord({ trial, seed: trial + 1, failureKind: 'budget_exceeded', failureMessage: 'budget spent' }),
    )
    const html = await renderHtmlReport(reportOf(failed, { command: 'run', passF1: 1 }))
    expect(sectionIds(html)).not.toContain('questions')
    expect(html).toContain('<h3>Failed trials</h3>')
    expect(html).not.toContain('category-grid')
  })

  it('names F1 in the Score charts only where a group has one', async () => {
    const heading = (html: string) => html.match(/<section id="scores"><h2>(.*?)<\/h2>/)![1]
    const repairHtml = await renderHtmlReport(reportOf(repairRecords()))
    expect(heading(repairHtml)).toBe('Score and F1 per group')
    // no run recorded its wall: no isolation row, rather than a bare "—"
    expect(repairHtml).not.toContain('<dt>isolation</dt>')
    for (const records of [questionRecords(), conformanceRecords()]) {
      const html = await renderHtmlReport(reportOf(records))
      expect(heading(html)).toBe('Score per group')
      expect(html).toContain('<a href="#scores">Score per group</a>')
      expect(html).not.toContain('and mean F1')
    }
  })

  it('draws suites of one group each in one Score chart, a row per suite, and a lone one in none; a suite of several groups keeps its own', async () => {
    const turn = (suite: string, agent: string, turn: number, correct: boolean) =>
      makeRecord({ suite, dataset: 'shop', caseId: suite, turn, agent, agentKind: 'custom', category: null, correct })
    const records = [
      ...['refunds', 'returns', 'shipping'].flatMap((suite, i) => [1, 2].map((t) => turn(suite, 'bot', t, t <= i + 1))),
      ...['bot', 'other'].flatMap((agent) => [1, 2].map((t) => turn('pricing', agent, t, agent === 'bot'))),
    ]
    const html = await renderHtmlReport(reportOf(records))
    const figures = [...html.matchAll(/<figure class="chart" id="(score-[^"]+)"[^>]*data-marks-for="([^"]*)"/g)]
    expect(figures.map((m) => m[1])).toEqual(['score-0-pricing-shop', 'score-suites'])
    const marks = (i: number) => JSON.parse(figures[i]![2]!.replaceAll('&quot;', '"')) as string[]
    expect(marks(0)).toEqual(['bot', 'other'])
    expect(marks(1)).toEqual(['refunds (shop) · bot', 'returns (shop) · bot', 'shipping (shop) · bot'])
    expect(html).toContain(
      'The 3 suites with one group each: Score (correct/attempted, Wilson 95% interval) per suite.',
    )
    // one suite of one group alone has no chart: its one row is the leaderboard's
    const lone = await renderHtmlReport(
      reportOf(records.filter((r) => r.suite !== 'returns' && r.suite !== 'shipping')),
    )
    expect([...lone.matchAll(/<figure class="chart" id="(score-[^"]+)"/g)].map((m) => m[1])).toEqual([
      'score-0-pricing-shop',
    ])
    // nor has a page of one group: no Score section at all
    const single = await renderHtmlReport(reportOf(records.filter((r) => r.suite === 'refunds')))
    expect(sectionIds(single)).not.toContain('scores')
    expect(single).not.toContain('id="score-')
    expect([...single.matchAll(/<tr data-group="([^"]+)"/g)].map((m) => m[1])).toEqual(['bot · refunds'])
  })

  it('shows richer baseline verdicts when they come: a paired F1 test, groups the baseline lacks', async () => {
    const html = await renderHtmlReport(reportOf(repairRecords()), {
      baselineDeltas: [
        {
          group: 'baseline · synthetic',
          before: { f1: 0.9, passRate: 0.2 },
          after: { f1: 0.69, passRate: 0 },
          verdict: {
            n: 5,
            b: 1,
            c: 0,
            p: 1,
            significantWorse: false,
            belowFloor: false,
            f1: { p: 0.002, significantWorse: true },
          },
        },
        { group: 'noop · synthetic', before: null, after: { f1: 0, passRate: 0 }, status: 'new', verdict: null },
      ],
    })
    expect(html).toContain('<th scope="col">p (F1 paired)</th>')
    expect(html).toContain('<th scope="row">baseline · synthetic</th><td class="verdict bad">regression (F1)</td>')
    expect(html).toMatch(/<td class="num" data-value="0.002">0.0020<\/td><\/tr>/)
    expect(html).toContain('<td class="verdict muted">new (not in the baseline)</td>')
    expect(html).toMatch(
      /<figure class="chart" id="baseline-deltas"[^>]*data-marks-for="\[&quot;baseline · synthetic&quot;\]"/,
    )
  })

  it('words baseline verdicts as the leaderboard and the terminal do (report/verdict.ts)', async () => {
    const facts = [
      { n: 10, b: 0, c: 6, p: 0.03, significantWorse: false, significantBetter: true, belowFloor: false },
      { n: 10, b: 0, c: 0, p: 1, significantWorse: false, belowFloor: true },
      { n: 10, b: 1, c: 1, p: 1, significantWorse: false, belowFloor: false },
      { n: 0, b: 0, c: 0, p: 1, significantWorse: false, belowFloor: false },
    ]
    const html = await renderHtmlReport(reportOf(repairRecords()), {
      baselineDeltas: facts.map((verdict, i) => ({
        group: `g${i}`,
        before: { f1: 0.5, passRate: 0.5 },
        after: { f1: 0.5, passRate: 0.5 },
        verdict,
      })),
    })
    const shown = [...html.matchAll(/<td class="verdict (\w+)">([^<]*)<\/td>/g)].map((m) => [m[1], m[2]])
    expect(shown).toEqual([
      ['good', 'better'],
      ['bad', 'below floor'],
      ['ok', 'no significant change'],
      ['muted', 'no pairs'],
    ])
    expect(shown.map(([, text]) => text)).toEqual(facts.map((f) => verdictLabel(f)))
  })

  it('charts repair cost against F1 when several agents/models spent tokens or money', async () => {
    const spend = (costUsd: number) => ({ ...emptyUsage(), calls: 1, promptTokens: 500, completionTokens: 50, costUsd })
    const records = repairRecords().map((r) =>
      r.agent === 'baseline'
        ? { ...r, model: 'model-a', usage: spend(0.01) }
        : r.agent === 'noop'
          ? { ...r, usage: spend(0.001) }
          : r,
    )
    const html = await renderHtmlReport(reportOf(records))
    expect(sectionIds(html)).toContain('repair-cost')
    expect(html).toMatch(
      /<figure class="chart" id="repair-pareto" data-mark-field="arm" data-marks-for="\[&quot;mock&quot;,&quot;noop&quot;,&quot;baseline@model-a&quot;\]"/,
    )
  })

  it('draws the distributions a real conformance evaluation records (conformanceMetrics)', async () => {
    const samples = (counts: Record<string, number>) =>
      Object.entries(counts).flatMap(([label, n]) =>
        Array.from({ length: n }, () => ({ sentiment: label, 'tone.formal': label === 'neutral' ? 'yes' : 'no' })),
      )
    const spec = {
      properties: [
        { name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 } },
        { name: 'tone.formal', distribution: { yes: 50, no: 50 } },
      ],
    }
    const recordOf = (agent: string, counts: Record<string, number>) =>
      makeRecord({
        agent,
        suite: 'conformance',
        dataset: 'reviews.jsonl',
        category: null,
        metrics: conformanceMetrics(evaluateConformanceSync(samples(counts), spec)),
      })
    const report = reportOf([
      recordOf('writer-a', { positive: 45, negative: 28, neutral: 27 }),
      recordOf('writer-b', { positive: 60, negative: 20, neutral: 20 }),
    ])
    const html = await renderHtmlReport(report)
    expect(sectionIds(html)).toContain('conformance')
    expect(html).toMatch(
      /<th scope="row">writer-a · conformance<\/th><td class="num" data-value="[\d.]+">[\d.]+<\/td><td data-value="[\d.]+">tone\.formal [\d.]+<\/td>/,
    )
    for (const [i, property] of ['sentiment', 'tone.formal'].entries()) {
      expect(html).toMatch(
        new RegExp(
          `<figure class="chart" id="conformance-${i}-${property.replace('.', '-')}" data-mark-field="series" data-marks-for="\\[&quot;writer-a \\(evaluated\\)&quot;,&quot;writer-b \\(evaluated\\)&quot;\\]"`,
        ),
      )
    }
    // The legend names what each bar shows: the spec's share, or a group's evaluated share.
    expect(html).toContain('series: requested (spec)')
    expect(html).toContain('series: writer-a (evaluated)')
  })

  it('shows only the sections whose data is there', async () => {
    expect(sectionIds(await renderHtmlReport(reportOf(repairRecords())))).toEqual([
      'leaderboard',
      'scores',
      'kinds',
      'columns',
      'failures',
      'reproducibility',
    ])
    expect(sectionIds(await renderHtmlReport(reportOf(questionRecords())))).toEqual([
      'leaderboard',
      'scores',
      'questions',
      'failures',
      'reproducibility',
    ])
    expect(sectionIds(await renderHtmlReport(reportOf(conformanceRecords())))).toEqual([
      'leaderboard',
      'scores',
      'conformance',
      'failures',
      'reproducibility',
    ])
    const oneModel = questionRecords().filter((r) => r.model === 'model-mid')
    const html = await renderHtmlReport(reportOf(oneModel))
    expect(html).toContain('id="category-grid"')
    expect(html).not.toContain('id="pareto"') // nothing to compare with one model
  })

  it('lists wrong and missed cells by position and agent value, never a clean value', async () => {
    const { report } = fullReport()
    const html = await renderHtmlReport(report)
    expect(report.records.some((r) => JSON.stringify(r).includes(CLEAN_SECRET))).toBe(true)
    expect(html).not.toContain(CLEAN_SECRET)
    expect(html).toContain('agent-city-0')
    expect(html).toMatch(
      /<td>missed<\/td><td class="num">100<\/td><td>name<\/td><td class="value">\(left unchanged\)<\/td>/,
    )
    expect(html).toContain('timed out after 300 s')
    expect(html).toContain('expected a number near 1234, got q9-answer') // the grader's detail of a wrong answer
  })

  it('reaches nothing outside the page: no external URL, a CSP that forbids loads, system fonts only', async () => {
    const { report, baselineDeltas } = fullReport()
    const html = await renderHtmlReport(report, { baselineDeltas })
    expectSelfContainedHtml(html)
    expect(html.match(/<script>/g)).toHaveLength(1)
  })

  it('renders a report with no runs: an empty leaderboard, no charts', async () => {
    const html = await renderHtmlReport(reportOf([]))
    expect(sectionIds(html)).toEqual(['leaderboard', 'failures', 'reproducibility'])
    expect(html).toContain('<tbody></tbody>')
    expect(html).toContain('No run failures.')
  })

  it("states the Score rule of the door that produced the report, never the CLI's for another door", async () => {
    const legend = async (config: Record<string, unknown>) =>
      (await renderHtmlReport(reportOf(questionRecords(), config))).match(/<p class="legend">(.*?)<\/p>/)![1]!
    expect(await legend({ command: 'run', passF1: 0.8 })).toMatch(
      /^Score is the share of attempted runs whose F1 reached <code>--pass-f1<\/code> \(0\.8\)\./,
    )
    expect(await legend({ command: 'vitest' })).toContain('<code>toRepairCells(task, { minF1: 0.6 })</code>')
    expect(await legend({ command: 'qa' })).toContain(
      'a question run is correct when the suite&#39;s answer grader accepted its answer.',
    )
    for (const config of [{ command: 'vitest' }, { command: 'jest' }, { command: 'qa' }])
      expect(await legend(config)).not.toMatch(/pass-f1|pass threshold/)
  })

  it('leaves out the leaderboard columns no group has a value in, and names them', async () => {
    const html = await renderHtmlReport(reportOf(questionRecords(), { command: 'qa' }))
    const head = [
      ...html.match(/<table id="leaderboard-table".*?<\/thead>/s)![0].matchAll(/<th scope="col">([^<]+)<\/th>/g),
    ].map((m) => m[1])
    expect(head).toEqual([
      'agent / model',
      'kind',
      'suite · dataset · category',
      'trials',
      'Score: correct [95% CI]',
      'steps',
      'tokens',
      'cost',
      'failures',
    ])
    // Each group names its unit and count under its name.
    expect(html).toMatch(/<td>[^<]*<br><span class="muted">\d+ (cases?|conversations?)<\/span><\/td>/)
    expect(html).toContain('Not shown, as no group has a value in them: F1, F1 [95% CI], P, R, F1 pooled, quota/trial.')
  })

  it('escapes names and messages', async () => {
    const records = repairRecords().map((r) =>
      r.agent === 'noop' ? { ...r, agent: '<img src=x onerror=alert(1)>' } : r,
    )
    const html = await renderHtmlReport(reportOf(records))
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('is deterministic: the same report gives the same bytes', async () => {
    const { report, baselineDeltas } = fullReport()
    expect(await renderHtmlReport(report, { baselineDeltas })).toBe(await renderHtmlReport(report, { baselineDeltas }))
  })

  it('keeps 1,000 records under 2 MB, in 10 groups or in 100', async () => {
    for (const agents of [10, 100]) {
      const html = await renderHtmlReport(reportOf(manyRecords(1000, agents)))
      expect(Buffer.byteLength(html)).toBeLessThan(2_000_000)
      expect(html).toContain('more not listed here; every run is in runs.jsonl')
      expect(html.match(/<tr data-group=/g)).toHaveLength(agents)
    }
  })
})

describe('paretoPoints', () => {
  const arm = (name: string, correct: number, costUsd: number, tokens = 100) => ({
    arm: name,
    attempted: 10,
    quality: correct / 10,
    tokens,
    costUsd,
  })

  it('marks the arms no other beats on both cost and accuracy', () => {
    const result = paretoPoints([
      arm('cheap', 4, 0.1),
      arm('mid', 8, 0.5),
      arm('pricey', 7, 2),
      arm('same-cost-worse', 3, 0.1),
    ])
    expect(result?.unit).toBe('USD')
    expect(Object.fromEntries(result!.points.map((p) => [p.arm, p.onFrontier]))).toEqual({
      cheap: true,
      mid: true,
      pricey: false,
      'same-cost-worse': false,
    })
  })

  it('falls back to tokens when nothing cost money, and gives nothing when nothing was spent', () => {
    expect(paretoPoints([arm('a', 4, 0, 50), arm('b', 6, 0, 80)])?.unit).toBe('tokens')
    expect(paretoPoints([arm('a', 4, 0, 0), arm('b', 6, 0, 0)])).toBeNull()
  })
})
