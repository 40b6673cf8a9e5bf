import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { RepairAgent } from '../src/core/agent.js'
import { loadDataset } from '../src/datasets/index.js'
import { gradeRepair } from '../src/grading/index.js'
import { commandSpec, type IsolatedSpec, moduleSpec } from '../src/isolation/agent-spec.js'
import { probeSandbox } from '../src/isolation/sandbox/probe.js'
import { type IsolatedAgent, startIsolatedAgent } from '../src/isolation/isolated-agent.js'
import { runRepairTrial } from '../src/run/run-repair-trial.js'
import { median } from './median.js'

const TRIALS = Number(process.env.BENCH_ISOLATION_TRIALS ?? 30)
const repo = fileURLToPath(new URL('../', import.meta.url))

/**
 * Per-trial wall time of agents over TRIALS trials on hospital (agent call + grading, as the CLI runs it). The
 * agents take turns trial by trial, so a shared machine's load falls on all of them alike.
 */
async function perTrial(...agents: RepairAgent[]): Promise<Array<{ first: number; median: number }>> {
  const { task, info } = await loadDataset({ id: 'hospital', seed: 1 })
  const times: number[][] = agents.map(() => [])
  for (let trial = 0; trial < TRIALS; trial++) {
    for (const [i, agent] of agents.entries()) {
      const start = performance.now()
      const { outcome } = await runRepairTrial({
        agent,
        task,
        info,
        trial,
        seed: 1,
        timeoutMs: 60_000,
        grade: (t, f) => gradeRepair(t, f),
      })
      if (outcome.status !== 'ok') throw new Error(`bench agent failed: ${outcome.failureMessage}`)
      times[i]!.push(performance.now() - start)
    }
  }
  return times.map((t) => ({ first: t[0]!, median: median(t.slice(1)) }))
}

const STARTS = Number(process.env.BENCH_ISOLATION_STARTS ?? 15)

/** Median time from spawn to the agent's `ready` per level, the levels taking turns start by start. */
async function startMs(levels: Array<'sandbox' | 'process'>, spec: IsolatedSpec): Promise<number[]> {
  const times: number[][] = levels.map(() => [])
  for (let i = 0; i < STARTS; i++) {
    for (const [j, level] of levels.entries()) {
      const started = performance.now()
      const agent = await startIsolatedAgent(spec, { cwd: repo, level })
      times[j]!.push(performance.now() - started)
      await agent.close()
    }
  }
  return times.map(median)
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
  const sandbox = probeSandbox()
  const levels: Array<'process' | 'sandbox'> = sandbox.ok ? ['process', 'sandbox'] : ['process']
  const started = levels.map(() => 0)
  const noops: IsolatedAgent[] = []
  for (const [i, level] of levels.entries()) {
    const t = performance.now()
    noops.push(await startIsolatedAgent(moduleSpec('test/fixtures/agents/noop.ts', repo), { cwd: repo, level }))
    started[i] = performance.now() - t
  }
  const [inProcess, ...isolated] = await perTrial(noop, ...noops)
  await Promise.all(noops.map((a) => a.close()))
  line('noop, in process', inProcess!, '—')
  for (const [i, level] of levels.entries()) {
    const r = isolated[i]!
    line(
      `noop module (TypeScript), ${level}`,
      { first: r.first + started[i]!, median: r.median },
      `overhead ${(r.median - inProcess!.median).toFixed(1)} ms (goal < 100 ms) ${r.median - inProcess!.median < 100 ? 'met' : 'MISSED'}`,
    )
  }
  const examples: IsolatedAgent[] = []
  for (const level of levels) {
    examples.push(await startIsolatedAgent(moduleSpec('fixtures/agents/example-agent.ts', repo), { cwd: repo, level }))
    examples.push(
      await startIsolatedAgent(commandSpec(['python3', 'fixtures/agents/example_agent.py'], repo), {
        cwd: repo,
        level,
      }),
    )
  }
  const exampleTimes = await perTrial(...examples)
  await Promise.all(examples.map((a) => a.close()))
  for (const [i, level] of levels.entries()) {
    line(`example agent (TypeScript), ${level}`, exampleTimes[2 * i]!, '—')
    line(`example agent (Python, cmd:), ${level}`, exampleTimes[2 * i + 1]!, '—')
  }
  const perLevel = Object.fromEntries(levels.map((l, i) => [l, isolated[i]!.median]))
  const startRows: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'bench-isolation-'))
  try {
    writeFileSync(join(dir, 'noop.mjs'), "export default { name: 'bench-noop', run: () => [] }\n")
    const [plain, boxed] = await startMs(levels, moduleSpec(join(dir, 'noop.mjs'), repo))
    startRows.push(`| noop module (.mjs), process | ${plain!.toFixed(0)} ms | — |`)
    if (sandbox.ok) {
      startRows.push(
        `| noop module (.mjs), sandbox (bubblewrap ${sandbox.version}) | ${boxed!.toFixed(0)} ms | overhead ${(boxed! - plain!).toFixed(0)} ms (goal ≤ 50 ms) ${boxed! - plain! <= 50 ? 'met' : 'MISSED'} |`,
      )
      const [pyPlain, pyBoxed] = await startMs(
        levels,
        commandSpec(['python3', 'fixtures/agents/example_agent.py'], repo),
      )
      startRows.push(`| example agent (Python, cmd:), process | ${pyPlain!.toFixed(0)} ms | — |`)
      startRows.push(
        `| example agent (Python, cmd:), sandbox | ${pyBoxed!.toFixed(0)} ms | overhead ${(pyBoxed! - pyPlain!).toFixed(0)} ms (goal ≤ 50 ms) ${pyBoxed! - pyPlain! <= 50 ? 'met' : 'MISSED'} |`,
      )
    } else {
      startRows.push(`| sandbox | — | not measured: ${sandbox.missing} |`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const trialCost =
    perLevel.sandbox !== undefined && perLevel.process !== undefined
      ? ` Per trial, the sandbox adds ${(perLevel.sandbox - perLevel.process).toFixed(1)} ms over \`process\` (noop module).`
      : ''
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
