import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { type ComparableRun, compareRuns } from '../../report-builder/compare.js'
import { comparisonToJson, renderComparisonMarkdown } from '../../report-builder/markdown/compare.js'
import { readComparableRuns } from '../../report-builder/baseline.js'
import { writeFileAtomic } from '../../files/write-atomic.js'
import { deltasText, testsText, verdictLabel, unitsText, verdictLine } from '../../report-builder/comparison-verdict.js'
import { writeCliGithubOutput } from '../report-output.js'
import { asGateRow } from '../../report-builder/gate-groups.js'
import { joinNegativeNumbers, parseIntegerFlag, parseNumberFlag } from '../flags.js'
import { type Command, shownPath } from '../io.js'

const COMPARE_HELP = `Usage: dataforge-evals compare A B [options]
       dataforge-evals compare RUNS --agents X,Y [options]

Paired comparison of B against A (A is the baseline). A and B are a report's JSON or runs file (NAME.json,
NAME.runs.jsonl, report.json, runs.jsonl), its stem (reports/smoke) or one of its files, baseline.json, or a
folder holding one report. Groups are agent/model × suite × dataset × category; when A and B share no
agent, they are two arms and pair across agents. The unit is the case (a question, a conversation, a repair
task with its own data; trials whose seed made new data are units of their own): each unit's trials are
averaged, then units are paired; the overall row's unit is the case, with agents nested in it.
A run that did not score (crash, timeout, budget) is not correct and F1 0; B failing where A scored fails.
A side is deterministic in a unit only with 2+ identical trials: where every unit is deterministic on both
sides, each unit is compared exactly (no p) and a drop beyond --min-delta fails. Otherwise: pass/fail by
McNemar on units when every outcome is binary (exact binomial when b + c ≤ 25, else continuity-corrected χ²),
else a sign-flip test on unit pass rates; F1 by a sign-flip test on unit means. One unit: its trials as two
samples, or "untestable here" with the trials needed when too few. Each group gates on one primary test (F1 where it
measures F1, else pass/fail); the groups' and the overall row's tests are corrected together (Holm), so an
unchanged agent fails at most α of the time. With n units no paired p is below
2·0.5^n (6 units are needed to reach α = 0.05). Refuses to compare runs whose dataset sha256s differ.
See docs/statistics.md.

Options:
  --agents X,Y         A = rows of agent X, B = rows of agent Y (agent name or armId); with one input, both from it
  --alpha A            family-wise significance level of the gate (default 0.05)
  --floor F            B also fails where its Score is below F
  --min-delta D        a deterministic unit fails when its Score or F1 drops by more than D (default 0)
  --seed S             seed for the Monte Carlo permutation tests (default 0)
  --output FILE        write the Markdown here instead of stdout
  --output-json FILE   write the comparison as JSON
  --github             GitHub Actions output: job summary, ::error lines, pr-comment.md beside --output
                       (else in reports/compare/)
                       (default on when GITHUB_ACTIONS=true)

Exit codes: 0 no significant regression of B vs A (untestable groups included), 1 B significantly worse, a
deterministic drop, runs that failed where A scored, nothing scored, or below --floor; 2 bad input or nothing
to compare (no run of B pairs with a run of A).
`

export const compareCommand: Command = async (argv, io) => {
  const options = {
    agents: { type: 'string' },
    alpha: { type: 'string' },
    floor: { type: 'string' },
    'min-delta': { type: 'string' },
    seed: { type: 'string' },
    output: { type: 'string' },
    'output-json': { type: 'string' },
    github: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const
  const { values, positionals } = parseArgs({
    args: joinNegativeNumbers(argv, options),
    allowPositionals: true,
    options,
  })
  if (values.help) {
    io.stdout(COMPARE_HELP)
    return 0
  }
  if (positionals.length < 1 || positionals.length > 2) {
    throw new InputError('compare needs two runs (A B), or one with --agents X,Y; see compare --help')
  }
  const alpha = parseNumberFlag('alpha', values.alpha, 0.05, { min: 0, max: 1, exclusiveMin: true })
  if (alpha >= 1) throw new InputError(`--alpha must be < 1, got ${values.alpha}`)
  const floor = values.floor === undefined ? undefined : parseNumberFlag('floor', values.floor, 0, { min: 0, max: 1 })
  const minDelta = parseNumberFlag('min-delta', values['min-delta'], 0, { min: 0, max: 1 })
  const seed = parseIntegerFlag('seed', values.seed, 0, {})
  const agents = values.agents === undefined ? null : parseAgents(values.agents)
  if (positionals.length === 1 && !agents) {
    throw new InputError('compare with one input needs --agents X,Y to say which agents to compare')
  }

  const pathA = resolve(io.cwd, positionals[0]!)
  const pathB = resolve(io.cwd, positionals[1] ?? positionals[0]!)
  const rowsA = await readComparableRuns(pathA)
  const rowsB = pathB === pathA ? rowsA : await readComparableRuns(pathB)
  let labelA = positionals[0]!
  let labelB = positionals[1] ?? positionals[0]!
  let a = rowsA
  let b = rowsB
  if (agents) {
    a = selectAgent(rowsA, agents[0], labelA)
    b = selectAgent(rowsB, agents[1], labelB)
    labelA = `${labelA} (${agents[0]})`
    labelB = `${labelB} (${agents[1]})`
  }
  // A built-in question suite is one group, as the reporter's baseline gate pairs it (gate-groups.ts).
  a = a.map(asGateRow)
  b = b.map(asGateRow)
  const cmp = compareRuns(a, b, { alpha, seed, minDelta, labelA, labelB, ...(floor === undefined ? {} : { floor }) })
  if (cmp.overall.n === 0) {
    throw new InputError(
      `nothing to compare: no unit of ${labelB} pairs with a unit of ${labelA} (A has ${describeGroups(a)}; B has ${describeGroups(b)})`,
    )
  }

  const markdown = renderComparisonMarkdown(cmp)
  const outputs: Array<[string, string]> = []
  if (values.output) outputs.push([resolve(io.cwd, values.output), markdown])
  if (values['output-json']) outputs.push([resolve(io.cwd, values['output-json']), comparisonToJson(cmp)])
  for (const [path, text] of outputs) await writeFileAtomic(path, text)

  if (!values.output) io.stdout(markdown)
  const o = cmp.overall
  const family = cmp.family.tests > 1 ? `; Holm-corrected over ${cmp.family.tests} tests` : ''
  io.stdout(
    `${cmp.regression ? 'REGRESSION' : 'ok'}: overall ${verdictLabel(o)}: ${testsText(o)}; ${deltasText(o)}` +
      `${failedGroups(cmp)}${family}` +
      `${outputs.length ? `; wrote ${outputs.map(([p]) => shownPath(io.cwd, p)).join(', ')}` : ''}\n`,
  )
  const failures = [...cmp.groups, cmp.overall]
    .filter((g) => g.failed)
    .map((g) => verdictLine(g, { alpha: cmp.alpha, floor: cmp.floor, against: 'A' }))
  // Without an output the comment goes to compare's own folder, never beside another command's reports.
  const outDir = values.output
    ? dirname(resolve(io.cwd, values.output))
    : values['output-json']
      ? dirname(resolve(io.cwd, values['output-json']))
      : resolve(io.cwd, 'reports/compare')
  await writeCliGithubOutput({ command: 'compare', flag: values.github, dir: outDir, failures, comparison: cmp, io })
  return cmp.regression ? 1 : 0
}

/** `; failing: g1 (deterministic drop (F1), 1 case), g2 (…)` when groups other than the overall row failed. */
function failedGroups(cmp: ReturnType<typeof compareRuns>): string {
  const failing = cmp.groups.filter((g) => g.failed)
  return failing.length
    ? `; failing: ${failing.map((g) => `${g.group} (${verdictLabel(g)}, ${unitsText(g)})`).join(', ')}`
    : ''
}

function parseAgents(raw: string): [string, string] {
  const parts = raw.split(',').map((s) => s.trim())
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new InputError(`--agents needs two names, X,Y; got "${raw}"`)
  return [parts[0], parts[1]]
}

type Side = Array<ComparableRun & { armId?: string }>

function describeGroups(rows: readonly Side[number][]): string {
  const names = [...new Set(rows.map((r) => `${r.agent} · ${r.dataset}`))].sort()
  return names.length ? names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length})` : '') : 'no runs'
}

function selectAgent(rows: Side, agent: string, label: string): Side {
  const picked = rows.filter((r) => r.agent === agent || r.armId === agent)
  if (picked.length === 0) {
    const present = [...new Set(rows.map((r) => r.agent))].sort().join(', ') || '(none)'
    throw new InputError(`${label}: no rows for agent "${agent}"; agents present: ${present}`)
  }
  return picked
}
