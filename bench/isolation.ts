import { fileURLToPath } from 'node:url'
import type { RepairAgent } from '../src/core/agent.js'
import { loadDataset } from '../src/datasets/index.js'
import { gradeRepair } from '../src/grading/index.js'
import { commandSpec, moduleSpec } from '../src/isolation/agent-spec.js'
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

/**
 * What the process boundary costs per trial on hospital (1,000 rows × 20 columns): the same agents in process
 * and isolated. One process serves an agent × dataset run (each trial gets a fresh module instance), so the
 * start-up (spawn, permission model, loading the module) is paid once; `first` includes it.
 */
export default async function run(): Promise<string> {
  const noop: RepairAgent = { name: 'noop', run: () => [] }
  const rows: string[] = []
  const line = (label: string, r: { first: number; median: number }, goal: string) =>
    rows.push(`| ${label} | ${r.median.toFixed(1)} ms | ${r.first.toFixed(0)} ms | ${goal} |`)
  const inProcess = await perTrial(noop)
  line('noop, in process', inProcess, '—')
  const started = performance.now()
  const isolated = await startIsolatedAgent(moduleSpec('test/fixtures/agents/noop.ts', repo), { cwd: repo })
  const startMs = performance.now() - started
  try {
    const r = await perTrial(isolated)
    line('noop module (TypeScript), isolated', { first: r.first + startMs, median: r.median }, `overhead ${(r.median - inProcess.median).toFixed(1)} ms (goal < 100 ms) ${r.median - inProcess.median < 100 ? 'met' : 'MISSED'}`)
  } finally {
    await isolated.close()
  }
  const example = await startIsolatedAgent(moduleSpec('fixtures/agents/example-agent.ts', repo), { cwd: repo })
  const python = await startIsolatedAgent(commandSpec(['python3', 'fixtures/agents/example_agent.py'], repo), { cwd: repo })
  try {
    line('example agent (TypeScript), isolated', await perTrial(example), '—')
    line('example agent (Python, cmd:), isolated', await perTrial(python), '—')
  } finally {
    await Promise.all([example.close(), python.close()])
  }
  return [
    '## Isolation cost per trial (hospital, 1,000 rows × 20 columns)',
    '',
    `Median wall time of a trial (agent call and grading) over ${TRIALS - 1} trials after the first, and the first trial including the process start.`,
    '',
    '| agent | per trial (median) | first trial | goal |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}
