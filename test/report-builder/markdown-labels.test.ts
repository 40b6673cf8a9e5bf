import { describe, expect, it } from 'vitest'
import type { DatasetInfo } from '../../src/core/dataset-info.js'
import { buildReport } from '../../src/report-builder/build.js'
import { renderLeaderboard } from '../../src/report-builder/markdown/leaderboard.js'
import { renderMarkdownReport } from '../../src/report-builder/markdown/report.js'
import { renderTerminalSummary } from '../../src/report-builder/terminal.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'
import { emptyUsage } from '../../src/core/usage.js'
import { renderHtmlReport } from '../../src/report-builder/html/index.js'

// Labels and counts a reader sees in the Markdown, on hand-made records.

const repair = (caseId: string, trial: number, f1: number, correct: boolean, metrics: Record<string, number> = {}) =>
  makeRecord({ caseId, trial, seed: trial + 1, f1, precision: 1, recall: f1, tp: 1, fp: 0, fn: 1, correct, metrics })

const info: DatasetInfo = {
  id: 'synthetic',
  origin: 'synthetic',
  source: 'generator',
  rows: 80,
  columns: 11,
  columnNames: [],
  dirtyCells: 40,
  idColumns: [],
  seed: 1,
  options: { rows: 80, errorRate: 0.05 },
  dirty: { sha256: 'a'.repeat(64), bytes: 10 },
  clean: { sha256: 'b'.repeat(64), bytes: 10 },
}

function report(records: ReturnType<typeof makeRecord>[], config: Record<string, unknown>) {
  return buildReport({
    records,
    datasets: [info],
    config,
    cwd: process.cwd(),
    runDateUtc: '2025-01-01T00:00:00Z',
    project: { commit: null, dirty: null },
  })
}

describe('Markdown labels', () => {
  it('one trial shows "—" and n = 1, never ± 0.000 or a zero-width interval', () => {
    const md = renderMarkdownReport(report([repair('one', 0, 0.5, true)], { command: 'run', passF1: 0.5 }))
    expect(md).toContain('| 0.500 (n = 1) | — (n = 1) |')
    expect(md).not.toContain('± 0.000')
    expect(md).not.toContain('[0.500, 0.500]')
  })

  it('states the Score rule of its front door in the legend and the column', () => {
    const cli = renderMarkdownReport(report([repair('one', 0, 0.5, true)], { command: 'run', passF1: 0.5 }))
    expect(cli).toContain('Score is the share of attempted runs whose F1 reached `--pass-f1` (0.5).')
    expect(cli).toContain('| Score: F1 ≥ 0.5 [95% CI] |')
    const vitest = renderMarkdownReport(report([repair('one', 0, 0.5, true)], { command: 'vitest' }))
    expect(vitest).toContain("in an eval file a run is correct when the eval's assertions passed")
    expect(vitest).toContain('| Score: assertions held [95% CI] |')
    const jest = renderMarkdownReport(report([repair('one', 0, 0.5, true)], { command: 'jest' }))
    expect(jest).toContain("in an eval file a run is correct when the eval's assertions passed")
    const qa = renderMarkdownReport(report([repair('one', 0, 0.5, true)], { command: 'qa' }))
    expect(qa).toContain("a question run is correct when the suite's answer grader accepted its answer.")
    expect(qa).not.toContain('--pass-f1')
  })

  it('names the k of pass^k, shows recorded metrics as the mean per group, labels units and regenerating options', () => {
    const records = [
      repair('flaky', 0, 1, true, { fixes: 4 }),
      repair('flaky', 1, 0.2, false, { fixes: 6 }),
      repair('flaky', 2, 1, true, { fixes: 8 }),
    ]
    const r = report(records, { command: 'vitest' })
    const md = renderLeaderboard(r)
    // 2 passes of 3: pass@1 = 2/3; pass^2 = C(2,2)/C(3,2) = 1/3 (pass^3 would be 0 for any flaky case)
    expect(md).toContain('| agent | dataset | case | passes | pass@1 | pass^2 |')
    expect(md).toContain('| flaky | 2/3 | 0.667 | 0.333 |')
    expect(md).toContain('## Recorded metrics')
    expect(md).toContain('| group | fixes |')
    expect(md).toContain('| baseline · evals/repair.eval.ts · repair | 6.000 |')
    expect(md).toContain('| steps/trial | quota/trial | quota total |')
    expect(md).toMatch(/- baseline · evals\/repair\.eval\.ts · repair: 1\.50 s total, 0\.50 s per trial \(3 trials\)/)
    expect(md).toContain('| synthetic | synthetic | 1 | errorRate 0.05, rows 80 | 80 × 11 |')
  })

  it('a run whose every repair trial failed is a repair report: failed trials, no question sections', () => {
    const failed = [0, 1].map((trial) =>
      failedRecord({ trial, seed: trial + 1, failureKind: 'budget_exceeded', failureMessage: 'budget spent' }),
    )
    const md = renderMarkdownReport(report(failed, { command: 'run', passF1: 1 }))
    expect(md).toContain('## Failed trials')
    expect(md).toContain('2 of 2 repair trials failed before they were scored (no F1).')
    for (const word of ['Question answering', 'Category × model', 'Failed questions']) expect(md).not.toContain(word)
  })

  it('the repair leaderboard leads with F1 and its interval, ranks by F1, and names what Score counts', () => {
    const arm = (agent: string, f1: number) =>
      [0, 1, 2].map((trial) =>
        makeRecord({
          agent,
          caseId: 'c',
          trial,
          seed: trial + 1,
          f1,
          precision: 1,
          recall: f1,
          tp: 1,
          fp: 0,
          fn: 1,
          correct: false,
        }),
      )
    // "a" sorts first by name; F1 ranks "z" above it, though both have Score 0.
    const r = report([...arm('a', 0.2), ...arm('z', 0.9)], { command: 'run', passF1: 1 })
    const lines = renderTerminalSummary(r, { color: false }).split('\n')
    expect(lines[0]).toMatch(
      /^group +units +F1 \(mean ± std\) +F1 \[95% CI\] +P +R +Score counts: F1 ≥ 1 +Score \[95% CI\]/,
    )
    expect(lines[1]).toMatch(/^z · evals\/repair\.eval\.ts · repair +/)
    expect(lines[2]).toMatch(/^a · evals\/repair\.eval\.ts · repair +/)
    expect(lines.join('\n')).toContain(
      'Repair groups rank by mean F1 (with its 95% interval) within their dataset. Score is the share of attempted runs whose F1 reached',
    )
    const md = renderMarkdownReport(r)
    expect(md.indexOf('| z | baseline |')).toBeGreaterThan(0)
    expect(md.indexOf('| z | baseline |')).toBeLessThan(md.indexOf('| a | baseline |'))
    expect(md).toContain('Repair groups rank by mean F1')
    expect(renderMarkdownReport(report([], { command: 'qa' }))).not.toContain('Repair groups rank')
  })

  it('names the wall an agent ran behind, and leaves the isolation line out when no run recorded one', () => {
    const unknown = renderMarkdownReport(report([repair('one', 0, 0.5, true)], { command: 'vitest' }))
    expect(unknown).not.toContain('- isolation:')
    expect(unknown).not.toMatch(/isolation.*—/)
    const inProcess = makeRecord({
      caseId: 'one',
      f1: 0.5,
      precision: 1,
      recall: 0.5,
      tp: 1,
      fp: 0,
      fn: 1,
      correct: true,
      isolated: false,
      isolation: { level: 'none', tool: null, version: null, files: 'all' },
    })
    expect(renderMarkdownReport(report([inProcess], { command: 'vitest' }))).toContain(
      '- isolation: baseline: none (in process)',
    )
  })

  it('prints "not priced" for a cost no price map decided, and a real $0 as $0', async () => {
    const called = (costUsd: number) =>
      makeRecord({
        caseId: 'c',
        f1: 0.5,
        precision: 1,
        recall: 0.5,
        tp: 1,
        fp: 0,
        fn: 1,
        correct: false,
        usage: { ...emptyUsage(), calls: 2, promptTokens: 100, completionTokens: 20, costUsd },
      })
    const costRow = (md: string) =>
      md.split('\n').find((l) => l.startsWith('| baseline · evals/repair.eval.ts · repair | 2 | 120 |'))
    // no prices given (the CLI says so), or the report does not say and tokens were spent at no cost
    expect(costRow(renderMarkdownReport(report([called(0)], { command: 'run', priced: false })))).toContain(
      '| not priced | not priced |',
    )
    expect(costRow(renderMarkdownReport(report([called(0)], { command: 'vitest' })))).toContain('| not priced |')
    // prices given and the model was free: a real $0
    expect(costRow(renderMarkdownReport(report([called(0)], { command: 'run', priced: true })))).toContain('| $0 |')
    expect(costRow(renderMarkdownReport(report([called(0.25)], { command: 'run', priced: true })))).toContain(
      '| $0.2500 |',
    )
    const html = await renderHtmlReport(report([called(0)], { command: 'run', priced: false }))
    expect(html).toMatch(/<td class="num" data-value="0">not priced<\/td>/)
    expect(html).not.toContain('>$0<')
  })
})
