import { describe, expect, it } from 'vitest'
import type { DatasetInfo } from '../../src/core/dataset-info.js'
import { ValueCuts } from '../../src/core/value-cap.js'
import { buildReport } from '../../src/report-builder/build.js'
import { evaluateGates } from '../../src/report-builder/gates.js'
import { renderJobSummary, renderPrComment } from '../../src/report-builder/github/index.js'
import { renderHtmlReport } from '../../src/report-builder/html/index.js'
import { renderLeaderboard } from '../../src/report-builder/markdown/leaderboard.js'
import { renderMarkdownReport } from '../../src/report-builder/markdown/report.js'
import { renderTerminalSummary } from '../../src/report-builder/terminal.js'
import { valueCutsOf } from '../../src/report-builder/value-cuts.js'
import { makeRecord } from '../helpers/stats-records.js'

// Every report states that the size policy cut values (issue 26): how many, to what size, which fields, and
// where the full length and sha256 are.

const info: DatasetInfo = {
  id: 'hospital',
  origin: 'csv-pair',
  source: 'files',
  rows: 10,
  columns: 2,
  columnNames: [],
  dirtyCells: 2,
  idColumns: [],
  dirty: { sha256: 'a'.repeat(64), bytes: 10 },
  clean: { sha256: 'b'.repeat(64), bytes: 10 },
}

/** The notes a record gets for two cut fix values and one cut `got`. */
function cutNotes(): string[] {
  const cuts = new ValueCuts()
  const long = 'y'.repeat(10_001)
  cuts.fixes([0, 1].map((row) => ({ row, column: 'city', newValue: long })))
  cuts.text(long, 'diagnostics.wrongValue[0].got')
  return cuts.warnings(['an agent warning'])
}

const report = (warnings: string[][], command = 'run') =>
  buildReport({
    records: warnings.map((w, trial) => makeRecord({ trial, seed: trial + 1, warnings: w })),
    datasets: [info],
    config: { command },
    cwd: process.cwd(),
    runDateUtc: '2026-12-02T00:00:00Z',
    project: { commit: null, dirty: null },
  })

const SENTENCE =
  '3 values in 1 run were cut to their first 10000 characters (`diagnostics.wrongValue[].got`, `fixes[].newValue`). ' +
  'The full length and sha256 of each are kept in runs.jsonl and report.json, in the warnings of its record ("value cut: …"); grading saw the full values.'

describe('reports state the values cut', () => {
  it('counts the cut notes of the records, fields without their indices and sorted', () => {
    expect(valueCutsOf(report([cutNotes(), [], cutNotes()]).records)).toEqual({
      values: 6,
      runs: 2,
      fields: ['diagnostics.wrongValue[].got', 'fixes[].newValue'],
    })
    expect(valueCutsOf(report([[], ['value cut: an agent wrote this']]).records)).toBeNull()
  })

  it('the CLI report and the leaderboard say it under the summary', () => {
    const r = report([cutNotes(), []])
    for (const md of [renderMarkdownReport(r), renderLeaderboard(report([cutNotes(), []], 'vitest'))]) {
      expect(md).toContain(`## Values cut\n\n> ${SENTENCE}\n`)
      expect(md.indexOf('## Values cut')).toBeGreaterThan(md.indexOf('## Summary'))
    }
    expect(renderMarkdownReport(report([[], []]))).not.toContain('Values cut')
  })

  it('the HTML page shows a notice at its top', async () => {
    const html = await renderHtmlReport(report([cutNotes(), cutNotes()]))
    expect(html).toContain(
      '<div class="gate value-cuts" role="note" style="background:#fff8e1;border:1px solid #ffd54f"><strong>Values cut:</strong> 6 values in 2 runs were cut to their first 10000 characters (<code>diagnostics.wrongValue[].got</code>, <code>fixes[].newValue</code>).',
    )
    expect(html.indexOf('value-cuts')).toBeLessThan(html.indexOf('<main>'))
    expect(await renderHtmlReport(report([[]]))).not.toContain('value-cuts')
  })

  it('the terminal summary ends with one line, only when something was cut', () => {
    const lines = renderTerminalSummary(report([cutNotes(), []], 'vitest'), { color: false })
      .trimEnd()
      .split('\n')
    expect(lines.at(-1)).toBe(
      'Values cut: 3 values in 1 run were cut to their first 10000 characters (diagnostics.wrongValue[].got, fixes[].newValue); their full length and sha256 are in runs.jsonl.',
    )
    expect(lines.filter((l) => l.includes('cut'))).toHaveLength(1)
    expect(renderTerminalSummary(report([[], []], 'vitest'), { color: false })).not.toContain('cut')
  })

  /** What the GitHub renderers get of a report gated without thresholds or baseline, with its cuts. */
  const gateView = (r: ReturnType<typeof report>) => {
    const gate = evaluateGates({ report: r, thresholds: {}, baseline: { deltas: [], problem: null } })
    return {
      aggregates: r.aggregates,
      failures: gate.failures,
      notes: gate.notes,
      thresholdFailures: [],
      deltas: [],
      alpha: 0.05,
      floor: null,
      valueCuts: valueCutsOf(r.records),
    }
  }

  it('the GitHub job summary says it under the verdict, only when something was cut', () => {
    const summary = (r: ReturnType<typeof report>) => renderJobSummary(gateView(r))
    const lines = summary(report([cutNotes(), cutNotes()], 'vitest')).split('\n')
    expect(lines.slice(2, 5)).toEqual([
      expect.stringMatching(/^✅ \*\*Gate passed\*\*/),
      '',
      '> Values cut: 6 values in 2 runs were cut to their first 10000 characters (`diagnostics.wrongValue[].got`, `fixes[].newValue`); their full length and sha256 are in runs.jsonl.',
    ])
    expect(summary(report([[]], 'vitest'))).not.toContain('cut')
  })

  it('the PR comment says it under the verdict, only when something was cut', () => {
    const comment = (r: ReturnType<typeof report>) => renderPrComment(gateView(r))
    expect(comment(report([cutNotes()], 'vitest'))).toContain(
      '\n\n> Values cut: 3 values in 1 run were cut to their first 10000 characters (`diagnostics.wrongValue[].got`, `fixes[].newValue`); their full length and sha256 are in runs.jsonl.',
    )
    expect(comment(report([[]], 'vitest'))).not.toContain('cut')
  })
})
