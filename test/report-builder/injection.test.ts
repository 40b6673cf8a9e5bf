import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DatasetInfo } from '../../src/core/dataset-info.js'
import { markdownCell, markdownCode, markdownText, terminalOutput, terminalText } from '../../src/core/escape-text.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { evaluateConformanceSync } from '../../src/grading/conformance/index.js'
import { buildReport } from '../../src/report-builder/build.js'
import { compareRuns } from '../../src/report-builder/compare.js'
import { renderComparisonMarkdown } from '../../src/report-builder/markdown/compare.js'
import { renderConformanceMarkdown } from '../../src/report-builder/markdown/conformance.js'
import { renderLeaderboard } from '../../src/report-builder/markdown/leaderboard.js'
import { renderMarkdownReport } from '../../src/report-builder/markdown/report.js'
import { renderRunEnd, renderTerminalSummary } from '../../src/report-builder/terminal.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'

// Issue 26 items 3 and 4: names and messages from agents and data (agent names, model ids, categories, dataset
// ids, failure messages) cannot add headings, table rows, columns or HTML to a Markdown report, nor drive the
// operator's terminal.

const FORGED =
  'gpt-4\n\n## Gate verdict: PASSED\n\n| forged | row |\n|---|---|\n<script>alert(1)</script><img src=x onerror=alert(2)>'
const ANSI = 'evil\u001b[1A\u001b[2K\r\u001b]0;title\u0007gate passed\u001b[32m ✓'

function info(id: string): DatasetInfo {
  return {
    id,
    origin: 'csv-pair',
    source: 'files',
    rows: 3,
    columns: 2,
    columnNames: [],
    dirtyCells: 1,
    idColumns: [],
    dirty: { sha256: 'a'.repeat(64), bytes: 10 },
    clean: { sha256: 'b'.repeat(64), bytes: 10 },
  }
}

/** Repair runs (one failed) and question runs, every free-text field set to `text`. */
function records(text: string): RunRecord[] {
  const who = {
    agent: `agent ${text}`,
    model: `model ${text}`,
    dataset: `data ${text}`,
    category: `cat ${text}`,
    agentKind: 'custom',
  }
  return [
    makeRecord({
      ...who,
      caseId: `case ${text}`,
      f1: 0.5,
      precision: 1,
      recall: 0.5,
      tp: 1,
      fp: 0,
      fn: 1,
      correct: false,
      metrics: { [`metric ${text}`]: 1 },
    }),
    makeRecord({
      ...who,
      caseId: `case ${text}`,
      trial: 1,
      f1: 1,
      precision: 1,
      recall: 1,
      tp: 2,
      fp: 0,
      fn: 0,
      correct: true,
    }),
    failedRecord({ ...who, caseId: `case ${text}`, trial: 2, failureMessage: `boom ${text}` }),
    makeRecord({ ...who, suite: `qa ${text}`, caseId: `q ${text}`, correct: false, validationError: `wrong ${text}` }),
    makeRecord({ ...who, suite: `qa ${text}`, caseId: `q2 ${text}`, correct: true }),
  ]
}

function report(text: string, command = 'run') {
  return buildReport({
    records: records(text),
    datasets: [info(`data ${text}`)],
    config: { command },
    cwd: process.cwd(),
    runDateUtc: '2025-01-01T00:00:00Z',
    project: { commit: null, dirty: null },
  })
}

/** What a Markdown renderer makes of the text: headings, and per table line its number of cells. */
function skeleton(markdown: string): string[] {
  return markdown.split('\n').flatMap((line) => {
    const heading = /^\s*(#+)/.exec(line)
    if (heading) return [`heading ${heading[1]}`]
    if (line.startsWith('|')) return [`row of ${line.replace(/\\\\/g, '').split(/(?<!\\)\|/).length - 2} cells`]
    if (/^\s*>/.test(line)) return ['quote']
    return []
  })
}

function expectInert(markdown: string, benign: string): void {
  expect(skeleton(markdown)).toEqual(skeleton(benign))
  // Inside a code span, text is shown as written: `<script>` there is inert.
  expect(markdown.replace(/(`+).*?\1/g, '')).not.toMatch(/<(script|img)/i)
  expect(markdown).not.toContain('\n## Gate verdict')
  expect(markdown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
}

describe('Markdown injection', () => {
  it('the report and the leaderboard keep their structure whatever the names hold', () => {
    const bad = report(FORGED)
    const good = report('plain')
    expect(renderMarkdownReport(bad)).toContain('&lt;script>')
    expectInert(renderMarkdownReport(bad), renderMarkdownReport(good))
    const extras = (r: ReturnType<typeof report>) => ({
      gateFailures: [`${r.aggregates[0]!.group}: f1 0.5 < 0.9`],
      gateNotes: [`note about ${r.aggregates[0]!.group}`],
      baselineNote: `no baseline at ${r.aggregates[0]!.group}`,
    })
    expectInert(renderLeaderboard(bad, extras(bad)), renderLeaderboard(good, extras(good)))
  })

  it('a category with | and a newline stays one row of the QA grid', () => {
    // A question report: a `run` report's runs are repairs, with no question grid.
    const md = renderMarkdownReport(report('a|b\nc', 'qa'))
    const grid = md.split('### Category × model')[1]!.split('###')[0]!
    const rows = grid.split('\n').filter((l) => l.startsWith('|'))
    expect(rows).toHaveLength(3) // header, delimiter, the suite · category row
    expect(skeleton(grid)).toEqual(
      skeleton(renderMarkdownReport(report('plain', 'qa')).split('### Category × model')[1]!.split('###')[0]!),
    )
  })

  it('the paired comparison keeps its structure', () => {
    const run = (text: string) => records(text).map((r) => ({ ...r }))
    const bad = renderComparisonMarkdown({
      ...compareRuns(run(FORGED), run(FORGED)),
      labelA: `a ${FORGED}`,
      labelB: 'b`x`',
    })
    const good = renderComparisonMarkdown({
      ...compareRuns(run('plain'), run('plain')),
      labelA: 'a plain',
      labelB: 'bx',
    })
    expectInert(bad, good)
  })

  it('a conformance evaluation with hostile property names and labels keeps its structure', () => {
    const evaluate = (text: string) => {
      const samples = [
        ...Array.from({ length: 5 }, () => ({ [`p ${text}`]: 'yes' })),
        ...Array.from({ length: 5 }, () => ({ [`p ${text}`]: `no ${text}` })),
      ]
      return renderConformanceMarkdown(
        evaluateConformanceSync(samples, { properties: [{ name: `p ${text}`, distribution: { yes: 100 } }] }),
      )
    }
    const bad = evaluate(FORGED)
    expectInert(
      bad.replace(/^- (started|completed).*$/gm, ''),
      evaluate('plain').replace(/^- (started|completed).*$/gm, ''),
    )
  })

  it('the escaping functions', () => {
    expect(markdownText('a\n# b')).toBe('a # b')
    expect(markdownText('# b')).toBe('\\# b')
    expect(markdownText('<script>x</script>')).toBe('&lt;script>x&lt;/script>')
    expect(markdownText('[x](javascript:alert(1))')).toBe('[x\\](javascript:alert(1))')
    expect(markdownText('p <0.001, 0.5 [0.2, 0.8], gpt-4o_mini')).toBe('p <0.001, 0.5 [0.2, 0.8], gpt-4o_mini')
    expect(markdownText('*a* _b_ `c`')).toBe('\\*a\\* \\_b\\_ \\`c\\`')
    expect(markdownCell('a|b')).toBe('a\\|b')
    expect(markdownCell('a\\|b')).toBe('a\\\\\\|b')
    expect(markdownCode('x`y')).toBe('``x`y``')
    expect(markdownCode('a\nb')).toBe('`a b`')
  })
})

describe('terminal injection', () => {
  it('terminalText removes escape sequences and control characters, and keeps one line', () => {
    expect(terminalText(ANSI)).toBe('evilgate passed ✓')
    expect(terminalText('a\nb\tc')).toBe('a b c')
    expect(terminalText('\u202eevil\u0008')).toBe('evil')
  })

  it('terminalOutput keeps colors and removes everything else that drives the terminal', () => {
    expect(terminalOutput('\u001b[31mred\u001b[39m\n')).toBe('\u001b[31mred\u001b[39m\n')
    expect(terminalOutput(ANSI)).toBe('evilgate passed\u001b[32m ✓')
  })

  it('the leaderboard and the run end print names without escape sequences', () => {
    const r = report(ANSI)
    const summary = renderTerminalSummary(r, { color: false })
    expect(summary).not.toContain('\u001b')
    expect(summary).not.toContain('\r')
    const end = renderRunEnd({
      report: r,
      gate: { failures: [`${r.aggregates[0]!.group}: f1 below`], notes: [ANSI], passed: false } as never,
      baselineDeltas: [],
      sincePrevious: [],
      baselineUpdate: [],
      outputDir: 'reports',
      print: true,
      color: false,
    })
    expect(end).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
  })

  it('the CLI prints a module agent whose name and model hold escape sequences without them', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'clean.csv'), 'id,city\n1,Paris\n2,Rome\n')
      await writeFile(join(dir, 'dirty.csv'), 'id,city\n1,Paris\n2,Rme\n')
      await writeFile(
        join(dir, 'agent.mjs'),
        `export default { name: ${JSON.stringify(`bad\u001b[1A\u001b[2K\rname`)}, run: () => { throw new Error(${JSON.stringify(`oops\u001b]0;t\u0007\n\u001b[2Kgate passed`)}) } }\n`,
      )
      const r = await runCli(
        [
          'run',
          '--agent',
          './agent.mjs',
          '--dataset',
          `d\u001b[2Kx`,
          '--dirty-csv',
          'dirty.csv',
          '--clean-csv',
          'clean.csv',
        ],
        dir,
      )
      const printed = r.stdout + r.stderr
      expect(printed).toContain('badname')
      expect(printed).toContain('oops')
      expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
    })
  })
})
