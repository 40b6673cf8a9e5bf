import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { type ComparableRun, compareRuns } from '../../report-builder/compare.js'
import { comparisonToJson, renderComparisonMarkdown } from '../../report-builder/markdown/compare.js'
import { readComparableRuns } from '../../report-builder/baseline.js'
import { writeFileAtomic } from '../../files/write-atomic.js'
import { deltasText, testsText, verdictLabel } from '../../report-builder/comparison-verdict.js'
import { joinNegativeNumbers, parseIntegerFlag, parseNumberFlag } from '../flags.js'
import { type Command, shownPath } from '../io.js'

export const COMPARE_HELP = `Usage: dataforge-evals compare A B [options]
       dataforge-evals compare RUNS --agents X,Y [options]

Paired comparison of B against A (A is the baseline). A and B are report.json, runs.jsonl or baseline.json
files, or folders holding a report. Rows pair on (case, turn, trial) within agent/model × suite × dataset × category;
when A and B share no agent, they are two arms and pair across agents. Pass/fail: McNemar (exact binomial
when b + c ≤ 25, else continuity-corrected χ²); F1: paired sign-flip permutation test with a bootstrap
interval. B fails where either test finds it significantly worse. With n pairs no p is below 2·0.5^n (6
pairs are needed to reach α = 0.05). Refuses to compare runs whose dataset sha256s differ.

Options:
  --agents X,Y         A = rows of agent X, B = rows of agent Y (agent name or armId); with one input, both from it
  --alpha A            significance level (default 0.05)
  --floor F            B also fails where its Score is below F
  --seed S             seed for the F1 test and bootstrap (default 0)
  --output FILE        write the Markdown here instead of stdout
  --output-json FILE   write the comparison as JSON

Exit codes: 0 no significant regression of B vs A, 1 B significantly worse (or below --floor), 2 bad input
or nothing to compare (no run of B pairs with a run of A).
`

export const compareCommand: Command = async (argv, io) => {
  const options = {
    agents: { type: 'string' },
    alpha: { type: 'string' },
    floor: { type: 'string' },
    seed: { type: 'string' },
    output: { type: 'string' },
    'output-json': { type: 'string' },
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
  const cmp = compareRuns(a, b, { alpha, seed, labelA, labelB, ...(floor === undefined ? {} : { floor }) })
  if (cmp.overall.n === 0) {
    throw new InputError(`nothing to compare: no run of ${labelB} pairs with a run of ${labelA} (A has ${describeGroups(a)}; B has ${describeGroups(b)})`)
  }

  const markdown = renderComparisonMarkdown(cmp)
  const outputs: Array<[string, string]> = []
  if (values.output) outputs.push([resolve(io.cwd, values.output), markdown])
  if (values['output-json']) outputs.push([resolve(io.cwd, values['output-json']), comparisonToJson(cmp)])
  for (const [path, text] of outputs) await writeFileAtomic(path, text)

  if (!values.output) io.stdout(markdown)
  const o = cmp.overall
  io.stdout(
    `${cmp.regression ? 'REGRESSION' : 'ok'}: overall ${verdictLabel(o)}: ${testsText(o)}; ${deltasText(o)}` +
      `${outputs.length ? `; wrote ${outputs.map(([p]) => shownPath(io.cwd, p)).join(', ')}` : ''}\n`,
  )
  return cmp.regression ? 1 : 0
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
