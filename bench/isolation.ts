import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { RepairAgent } from '../src/core/agent.js'
import { loadDataset } from '../src/datasets/index.js'
import { gradeRepair } from '../src/grading/index.js'
import { commandSpec, type IsolatedSpec, moduleSpec } from '../src/isolation/agent-spec.js'
import { probeSandbox } from '../src/isolation/sandbox/probe.js'
import { startIsolatedAgent } from '../src/isolation/isolated-agent.js'
import { runRepairTrial } from '../src/run/run-repair-trial.js'

const TRIALS = Number(process.env.BENCH_ISOLATION_TRIALS ?? 30)
const repo = fileURLToPath(new URL('../', import.meta.url))

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

/** Per-trial wall time of one agent over TRIALS trials on hospital (agent call + grading, as the CLI runs it). */
async function perTrial(agent: RepairAgent): Promise<{ first: number; median: number }> {
  const { task, info } = await loadDataset({ id: 'hospital', seed: 1 })
  const times: number[] = []
  for (let trial = 0; trial < TRIALS; trial++) {
    const start = performance.now()
    const { outcome } = await runRepairTrial({ agent, task, info, trial, seed: 1, timeoutMs: 60_000, grade: (t, f) => gradeRepair(t, f) })
    if (outcome.status !== 'ok') throw new Error(`bench agent failed: ${outcome.failureMessage}`)
    times.push(performance.now() - start)
  }
  return { first: times[0]!, median: median(times.slice(1)) }
}

const STARTS = Number(process.env.BENCH_ISOLATION_STARTS ?? 15)

/** Median time from spawn to the agent's `ready` (a `.mjs` agent: no TypeScript loader in the way) at one level. */
async function startMs(level: 'sandbox' | 'process', spec: IsolatedSpec): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < STARTS; i++) {
    const started = performance.now()
    const agent = await startIsolatedAgent(spec, { cwd: repo, level })
    times.push(performance.now() - started)
    await agent.close()
  }
  return median(times)
}

/**
 * What the process boundary costs per trial on hospital (1,000 rows × 20 columns): the same agents in process,
 * under the permission model (`process`) and in the OS sandbox (`sandbox`, bubblewrap). One process serves an
 * agent × dataset run (each trial gets a fresh module instance), so the start-up (spawn, sandbox, permission model,
 * loading the module) is paid once; `first` includes it. The start table compares the two levels' process starts.
 */
export default async function run(): Promise<string> {
  const noop: RepairAgent = { name: 'noop', run: () => [] }
  const rows: string[] = []
  const line = (label: string, r: { first: number; median: number }, goal: string) =>
    rows.push(`| ${label} | ${r.median.toFixed(1)} ms | ${r.first.toFixed(0)} ms | ${goal} |`)
  const inProcess = await perTrial(noop)
  line('noop, in process', inProcess, '—')
  const sandbox = probeSandbox()
  const levels: Array<'process' | 'sandbox'> = sandbox.ok ? ['process', 'sandbox'] : ['process']
  const perLevel: Record<string, number> = {}
  for (const level of levels) {
    const started = performance.now()
    const isolated = await startIsolatedAgent(moduleSpec('test/fixtures/agents/noop.ts', repo), { cwd: repo, level })
    const firstMs = performance.now() - started
    try {
      const r = await perTrial(isolated)
      perLevel[level] = r.median
      line(`noop module (TypeScript), ${level}`, { first: r.first + firstMs, median: r.median }, `overhead ${(r.median - inProcess.median).toFixed(1)} ms (goal < 100 ms) ${r.median - inProcess.median < 100 ? 'met' : 'MISSED'}`)
    } finally {
      await isolated.close()
    }
    const example = await startIsolatedAgent(moduleSpec('fixtures/agents/example-agent.ts', repo), { cwd: repo, level })
    const python = await startIsolatedAgent(commandSpec(['python3', 'fixtures/agents/example_agent.py'], repo), { cwd: repo, level })
    try {
      line(`example agent (TypeScript), ${level}`, await perTrial(example), '—')
      line(`example agent (Python, cmd:), ${level}`, await perTrial(python), '—')
    } finally {
      await Promise.all([example.close(), python.close()])
    }
  }
  const startRows: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'bench-isolation-'))
  try {
    writeFileSync(join(dir, 'noop.mjs'), "export default { name: 'bench-noop', run: () => [] }\n")
    const spec = moduleSpec(join(dir, 'noop.mjs'), repo)
    const plain = await startMs('process', spec)
    startRows.push(`| noop module (.mjs), process | ${plain.toFixed(0)} ms | — |`)
    if (sandbox.ok) {
      const boxed = await startMs('sandbox', spec)
      startRows.push(`| noop module (.mjs), sandbox (bubblewrap ${sandbox.version}) | ${boxed.toFixed(0)} ms | overhead ${(boxed - plain).toFixed(0)} ms (goal ≤ 50 ms) ${boxed - plain <= 50 ? 'met' : 'MISSED'} |`)
      const py = commandSpec(['python3', 'fixtures/agents/example_agent.py'], repo)
      const pyPlain = await startMs('process', py)
      const pyBoxed = await startMs('sandbox', py)
      startRows.push(`| example agent (Python, cmd:), process | ${pyPlain.toFixed(0)} ms | — |`)
      startRows.push(`| example agent (Python, cmd:), sandbox | ${pyBoxed.toFixed(0)} ms | overhead ${(pyBoxed - pyPlain).toFixed(0)} ms (goal ≤ 50 ms) ${pyBoxed - pyPlain <= 50 ? 'met' : 'MISSED'} |`)
    } else {
      startRows.push(`| sandbox | — | not measured: ${sandbox.missing} |`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const trialCost = perLevel.sandbox !== undefined && perLevel.process !== undefined ? ` Per trial, the sandbox adds ${(perLevel.sandbox - perLevel.process).toFixed(1)} ms over \`process\` (noop module).` : ''
  return [
    '## Isolation cost per trial (hospital, 1,000 rows × 20 columns)',
    '',
    `Median wall time of a trial (agent call and grading) over ${TRIALS - 1} trials after the first, and the first trial including the process start.${trialCost}`,
    '',
    '| agent | per trial (median) | first trial | goal |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    `### Agent process start (spawn to \`ready\`, median of ${STARTS})`,
    '',
    '| agent, level | start | goal |',
    '| --- | --- | --- |',
    ...startRows,
    '',
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`)
