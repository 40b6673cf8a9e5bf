import type { Tokens } from 'marked'
import { describe, expect, it } from 'vitest'
import { baselineFromRecords, baselineRuns, groupDeltas } from '../../../src/report-builder/baseline.js'
import { buildReport } from '../../../src/report-builder/build.js'
import { checkThresholds, evaluateGates } from '../../../src/report-builder/gates.js'
import {
  escapeCommandData,
  escapeCommandProperty,
  gateAnnotations,
  type GithubGateView,
  PR_COMMENT_MARKER,
  renderJobSummary,
  renderPrComment,
  workflowCommand,
} from '../../../src/report-builder/github/index.js'
import { markdownCell } from '../../../src/core/escape-text.js'
import { table } from '../../../src/report-builder/figure-text.js'
import { makeRecord } from '../../helpers/stats-records.js'
import { tables } from '../../helpers/markdown-tables.js'

const cellText = (c: Tokens.TableCell) => c.text

/** 12 cases of one group; `worse` of them wrong in the candidate run (a real regression for McNemar; no F1, so pass/fail gates). */
function records(agent: string, wrong: number) {
  return Array.from({ length: 12 }, (_, i) =>
    makeRecord({
      agent,
      suite: 'hospital',
      caseId: `case-${String(i).padStart(2, '0')}`,
      dataset: 'hospital',
      correct: i >= wrong,
      precision: 1,
      recall: 1,
    }),
  )
}

function view(current: ReturnType<typeof records>, base: ReturnType<typeof records>, thresholds = {}): GithubGateView {
  const report = buildReport({
    records: current,
    datasets: [],
    config: {},
    cwd: process.cwd(),
    runDateUtc: '2026-01-01T00:00:00.000Z',
    project: { commit: null, dirty: null },
  })
  const deltas = groupDeltas(baselineRuns(baselineFromRecords(base)), report, { alpha: 0.05 })
  const gate = evaluateGates({ report, thresholds, baseline: { deltas, problem: null } })
  return {
    aggregates: report.aggregates,
    failures: gate.failures,
    notes: gate.notes,
    thresholdFailures: checkThresholds(report.aggregates, thresholds),
    deltas,
    alpha: 0.05,
    floor: null,
    files: new Map([[report.aggregates[0]!.group, { file: 'evals/repair.eval.ts', line: 7 }]]),
    reportUrl: 'https://example.test/artifacts/1',
  }
}

describe('workflow command escaping (GitHub rules)', () => {
  it('escapes %, CR and LF in the message, and also : and , in properties', () => {
    expect(escapeCommandData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext')
    expect(escapeCommandProperty('a: b, c%\n')).toBe('a%3A b%2C c%25%0A')
    expect(workflowCommand('error', 'x: 1,\ny', { title: 'g: 1, 2', file: 'evals/a,b.ts', line: 3 })).toBe(
      '::error title=g%3A 1%2C 2,file=evals/a%2Cb.ts,line=3::x: 1,%0Ay',
    )
    expect(workflowCommand('warning', 'plain')).toBe('::warning::plain')
  })

  it('escapes Markdown in cells so a hostile name keeps the table intact, and shows a blank cell as —', () => {
    expect(markdownCell('a|b <script>*x*')).toBe('a\\|b &lt;script>\\*x\\*')
    expect(table(['group', 'note'], [[markdownCell('a|b'), markdownCell(' ')]])).toBe(
      '| group | note |\n| --- | --- |\n| a\\|b | — |',
    )
  })
})

describe('job summary and PR comment', () => {
  it('a regression: verdict first, the failing group with value, baseline, Δ and p with its test, then the leaderboard', () => {
    const v = view(records('baseline', 10), records('baseline', 0))
    expect(v.failures.length).toBeGreaterThan(0)
    const summary = renderJobSummary(v)
    expect(summary.split('\n')[2]).toMatch(/^❌ \*\*Gate failed\*\*/)
    expect(summary.indexOf('### Failing groups')).toBeLessThan(summary.indexOf('### Leaderboard'))
    const [failing, board] = tables(summary)
    expect(failing!.header.map(cellText)).toEqual([
      'group',
      'metric',
      'value',
      'threshold or baseline',
      'Δ',
      'p (test)',
      'verdict',
    ])
    const row = failing!.rows[0]!.map(cellText)
    expect(row.slice(1, 5)).toEqual(['pass rate', '0.167', 'baseline 1.000', '-0.833'])
    expect(row[5]).toMatch(/^0\.0020 \(pass\/fail McNemar exact, 12 cases\)$/)
    expect(board!.rows).toHaveLength(1)
    // The leaderboard names each group's unit and count.
    expect(board!.header.map(cellText).slice(0, 3)).toEqual(['group', 'units', 'runs completed'])
    expect(cellText(board!.rows[0]![1]!)).toBe('12 cases')
    expect(summary).toContain('[Full HTML report](https://example.test/artifacts/1)')

    const comment = renderPrComment(v)
    expect(comment.startsWith(PR_COMMENT_MARKER)).toBe(true)
    const [changed] = tables(comment)
    expect(changed!.rows).toHaveLength(1)
    const cells = changed!.rows[0]!.map(cellText)
    expect(cells[1]).toBe('1.000 → 0.167')
    expect(cells[2]).toBe('-0.833')
    expect(cells[6]).toContain('regression (pass/fail)')
    expect(cells[5]).toMatch(/, 12 cases$/)

    // The viewer's command for the changed runs, where the run end knows both paths; none when nothing changed.
    expect(comment).not.toContain('dataforge-evals view')
    const withView = renderPrComment({
      ...v,
      viewCommand: 'npx dataforge-evals view evals/__reports__ --against evals/baseline.json',
    })
    expect(withView).toContain(
      'Each changed run, cell by cell, with its transcript: `npx dataforge-evals view evals/__reports__ --against evals/baseline.json`',
    )
    expect(
      renderPrComment({
        ...view(records('baseline', 2), records('baseline', 2)),
        viewCommand: 'npx dataforge-evals view x --against y',
      }),
    ).not.toContain('dataforge-evals view')

    const annotations = gateAnnotations(v)
    const error = annotations.find((a) => a.startsWith('::error'))!
    expect(error).toMatch(
      /^::error title=baseline · hospital · repair,file=evals\/repair\.eval\.ts,line=7::baseline · hospital · repair: regression/,
    )
  })

  it('no change: passes, says so, and names no changed group', () => {
    const v = view(records('baseline', 2), records('baseline', 2))
    expect(v.failures).toEqual([])
    expect(renderJobSummary(v)).toContain('✅ **Gate passed**')
    const comment = renderPrComment(v)
    expect(comment).toContain('No group changed against the baseline (1 compared).')
    expect(tables(comment)).toHaveLength(0)
    expect(gateAnnotations(v).filter((a) => a.startsWith('::error'))).toEqual([])
  })

  it('threshold failures carry metric, value and bar; underpowered groups and notes become warnings', () => {
    const few = records('baseline', 0).slice(0, 3)
    const v = view(few, few, { 'baseline*': { passRate: 1.5 } })
    const [failing] = tables(renderJobSummary(v))
    expect(failing!.rows[0]!.map(cellText).slice(1, 4)).toEqual(['passRate', '1.000', 'threshold ≥ 1.5'])
    const annotations = gateAnnotations({
      ...v,
      notes: ['threshold pattern "typo" matches no group (not checked: this run was filtered)'],
    })
    // The underpowered groups in one warning for the run (not one per group), naming each with its units.
    const warnings = annotations.filter((a) => a.startsWith('::warning'))
    expect(warnings.map((a) => a.split('::')[1])).toEqual([
      'warning title=dataforge-evals gate (underpowered groups)',
      'warning title=dataforge-evals gate (not checked)',
    ])
    expect(warnings[0]).toContain(
      '::underpowered: 1 group has too few units for a paired test to reach α=0.05 (6 are needed), so it fails only through a threshold or the floor: baseline · hospital · repair (3 cases)',
    )
    const summary = renderJobSummary(v)
    expect(summary.match(/underpowered: /g)).toHaveLength(1)
  })

  it('a hostile group name is escaped in both documents', () => {
    const hostile = records('evil|<img src=x>', 0)
    const v = view(hostile, [])
    for (const doc of [renderJobSummary(v), renderPrComment(v)]) {
      expect(doc).not.toMatch(/(^|[^\\])<img/)
      for (const t of tables(doc)) for (const r of t.rows) expect(r).toHaveLength(t.header.length)
    }
  })
})
