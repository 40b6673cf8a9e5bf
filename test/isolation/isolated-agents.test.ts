import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { groundTruthOf } from '../../src/core/ground-truth.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { loadDataset } from '../../src/datasets/index.js'
import { runCli } from '../helpers/cli-harness.js'
import { bundledDatasets } from '../helpers/dataset-paths.js'
import { ATTACKS } from '../fixtures/vitest/isolation/evals/attacks.eval.js'
import { type FixtureRun, repoRoot, runFixture, TempDirs } from '../helpers/vitest-run.js'
import { readRuns, withoutVolatile } from '../helpers/runs.js'

// Agents behind a process boundary, through both front doors: the CLI (in this process; each isolated agent is
// a real child process) and evalCase (a real Vitest run of test/fixtures/vitest/isolation).

const temp = new TempDirs()
const agentsDir = resolve(repoRoot, 'test/fixtures/agents')
const agentPath = (name: string) => join(agentsDir, `${name}.ts`)
const example = resolve(repoRoot, 'fixtures/agents')
let fixture: FixtureRun

beforeAll(async () => {
  fixture = await runFixture({ fixture: 'isolation', outputDir: temp.make(), cacheDir: temp.make() })
}, 180_000)

afterAll(() => temp.removeAll())

const runsIn = (dir: string): RunRecord[] => readRuns(join(dir, 'runs.jsonl'))

/** Runs the CLI with reports in a fresh folder (cwd: the repository, as the fixture's workers have it). */
async function cli(args: string[], env: Record<string, string> = {}) {
  const out = temp.make()
  const res = await runCli(
    ['run', ...args, '--quiet', '--output', join(out, 'report.md'), '--output-json', join(out, 'report.json')],
    repoRoot,
    env,
  )
  return { ...res, out, runs: () => runsIn(out) }
}

const counts = (r: RunRecord) => ({ status: r.status, tp: r.tp, fp: r.fp, fn: r.fn, f1: r.f1 })

describe('attacks under isolation score what noop scores', () => {
  it('through the CLI, on a canonical and a synthetic set, with the data folder in argv and env', async () => {
    const dataDir = temp.make()
    cpSync(join(bundledDatasets, 'hospital'), join(dataDir, 'hospital'), { recursive: true })
    const saved = process.env.DATAFORGE_DATA_DIR
    process.env.DATAFORGE_DATA_DIR = dataDir
    try {
      const res = await cli([
        '--agent',
        ATTACKS.map(agentPath).join(','),
        '--dataset',
        'hospital,synthetic',
        '--data-dir',
        dataDir,
        '--timeout-s',
        '60',
      ])
      expect(res.code, res.stderr).toBe(0)
      const runs = res.runs()
      expect(runs).toHaveLength(ATTACKS.length * 2)
      for (const dataset of ['hospital', 'synthetic']) {
        const noop = runs.find((r) => r.agent === 'noop-module' && r.dataset === dataset)!
        expect(noop.fn).toBeGreaterThan(0)
        for (const r of runs.filter((x) => x.dataset === dataset)) {
          expect({ agent: r.agent, ...counts(r) }).toEqual({ agent: r.agent, ...counts(noop) })
          expect(r).toMatchObject({ agentKind: 'custom', isolated: true })
        }
      }
    } finally {
      if (saved === undefined) delete process.env.DATAFORGE_DATA_DIR
      else process.env.DATAFORGE_DATA_DIR = saved
    }
  }, 180_000)

  it('through evalCase', () => {
    const runs = fixture.reports.runs().filter((r) => / on (hospital|synthetic)$/.test(r.caseId))
    expect(runs).toHaveLength(ATTACKS.length * 2)
    for (const dataset of ['hospital', 'synthetic']) {
      const noop = runs.find((r) => r.caseId === `noop on ${dataset}`)!
      expect(noop.status).toBe('ok')
      for (const r of runs.filter((x) => x.dataset === dataset)) {
        expect({ caseId: r.caseId, ...counts(r) }).toEqual({ caseId: r.caseId, ...counts(noop) })
        expect(r).toMatchObject({ agentKind: 'custom', isolated: true })
      }
    }
  })

  it('a custom agent may not take a built-in name', async () => {
    const res = await cli(['--agent', agentPath('impostor-baseline'), '--dataset', 'synthetic'])
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/impostor-baseline\.ts calls itself "baseline", the name of a built-in agent/)
  })
})

describe('agents that cannot start are bad input', () => {
  it('exit 2 naming the agent: missing command, module of the wrong kind', async () => {
    const missing = await cli(['--agent', 'cmd:no-such-program-here --flag', '--dataset', 'synthetic'])
    expect(missing.code).toBe(2)
    // Under the sandbox the interpreter is looked up before the spawn; without it the spawn fails.
    expect(missing.stderr).toMatch(
      /agent cmd:no-such-program-here --flag did not start: (agent process could not start: spawn no-such-program-here ENOENT|the sandbox cannot mount the agent's interpreter: "no-such-program-here" is not an executable on PATH)/,
    )
    const missingProcess = await cli([
      '--isolate',
      'process',
      '--agent',
      'cmd:no-such-program-here --flag',
      '--dataset',
      'synthetic',
    ])
    expect(missingProcess.code).toBe(2)
    expect(missingProcess.stderr).toMatch(
      /agent cmd:no-such-program-here --flag did not start: agent process could not start: spawn no-such-program-here ENOENT/,
    )
    const wrongKind = await cli(['--agent', agentPath('data-only'), '--dataset', 'synthetic'])
    expect(wrongKind.code).toBe(2)
    expect(wrongKind.stderr).toMatch(
      /data-only\.ts must export a repair agent \(\{ name, run\(task, ctx\) \}\); it offers only data/,
    )
  })
})

describe('agents that misbehave are recorded failures', () => {
  const cases: Array<[string, string, string[]]> = [
    ['exits', 'agent_exit', []],
    ['timer-throws', 'agent_crash', []],
    ['rejects', 'agent_crash', []],
    ['loops', 'timeout', ['--timeout-s', '1']],
    ['oom', 'out_of_memory', ['--agent-memory-mb', '32', '--timeout-s', '120']],
    ['huge-output', 'invalid_output', []],
  ]
  for (const [name, kind, extra] of cases) {
    it(`${name}: ${kind}, reports written, exit 1`, async () => {
      const res = await cli(['--agent', agentPath(name), '--dataset', 'hospital', '--trials', '2', ...extra])
      expect(res.code, res.stderr).toBe(1)
      expect(res.stderr).toMatch(/run failed: /)
      const runs = res.runs()
      expect(runs.map((r) => [r.status, r.failureKind])).toEqual([
        ['failed', kind],
        ['failed', kind],
      ])
      expect(existsSync(join(res.out, 'report.md'))).toBe(true)
    }, 180_000)
  }

  it('huge output is refused before anything walks it', async () => {
    const res = await cli(['--agent', agentPath('huge-output'), '--dataset', 'hospital'])
    expect(res.runs()[0]!.failureMessage).toBe(
      'agent returned 4294967295 fixes for a table of 20000 cells (at most 4 per cell)',
    )
  })

  it('through evalCase, including a body that swallows the agent failure', () => {
    const runs = fixture.reports.runs()
    const kind = (caseId: string) => runs.filter((r) => r.caseId === caseId).map((r) => [r.status, r.failureKind])
    expect(kind('exits fails')).toEqual([['failed', 'agent_exit']])
    expect(kind('timer-throws fails')).toEqual([['failed', 'agent_crash']])
    expect(kind('rejects fails')).toEqual([['failed', 'agent_crash']])
    expect(kind('loops fails')).toEqual([['failed', 'timeout']])
    expect(kind('huge-output fails')).toEqual([['failed', 'invalid_output']])
    expect(kind('oom fails')).toEqual([['failed', 'out_of_memory']])
    expect(kind('caught exit still fails')).toEqual([['failed', 'agent_exit']])
  })
})

describe('one trial path, two front doors', () => {
  const volatile = withoutVolatile

  it('the same agents and seeds give identical records apart from runtime and date', async () => {
    const agents = [
      join(example, 'example-agent.ts'),
      `cmd:python3 ${join(example, 'example_agent.py')}`,
      agentPath('bad-usage'),
    ]
    const res = await cli([
      '--agent',
      agents.join(','),
      '--dataset',
      'synthetic',
      '--trials',
      '2',
      '--seed',
      '5',
      '--pass-f1',
      '0',
    ])
    expect(res.code, res.stderr).toBe(0)
    const fromCli = res.runs().map(volatile)
    const fromEval = fixture.reports
      .runs()
      .filter((r) => r.caseId === 'synthetic')
      .map(volatile)
    const key = (r: { agent: string; trial: number }) => `${r.agent}#${r.trial}`
    expect(fromEval.map(key).sort()).toEqual(fromCli.map(key).sort())
    for (const r of fromCli) expect(fromEval.find((e) => key(e) === key(r))).toEqual(r)
    // Negative and NaN usage is dropped the same way by both.
    const sanitized = fromCli.find((r) => r.agent === 'bad-usage')!
    expect(sanitized.usage).toMatchObject({ calls: 0, promptTokens: 0, completionTokens: 12, costUsd: 0 })
    expect(sanitized.steps).toBe(1)
    expect((await runCli(['verify', res.out], repoRoot)).code).toBe(0)
    expect((await runCli(['verify', fixture.reports.dir], repoRoot)).code).toBe(0)
  }, 120_000)

  it('the Python example over the protocol scores the same as its TypeScript twin', async () => {
    const res = await cli([
      '--agent',
      `${join(example, 'example-agent.ts')},cmd:python3 ${join(example, 'example_agent.py')}`,
      '--dataset',
      'synthetic,beers',
      '--trials',
      '2',
    ])
    expect(res.code, res.stderr).toBe(0)
    const runs = res.runs()
    const ts = runs.filter((r) => r.agent === 'example-typescript')
    const py = runs.filter((r) => r.agent === 'example-python')
    expect(ts).toHaveLength(4)
    expect(py.map((r) => [r.dataset, r.trial, r.tp, r.fp, r.fn])).toEqual(
      ts.map((r) => [r.dataset, r.trial, r.tp, r.fp, r.fn]),
    )
    expect(ts.some((r) => (r.tp ?? 0) > 0)).toBe(true)
    expect(py[0]).toMatchObject({ agentSource: `cmd:python3 ${join(example, 'example_agent.py')}`, isolated: true })
    expect(py[0]!.agentSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(ts[0]).toMatchObject({ agentSource: 'module:fixtures/agents/example-agent.ts', isolated: true })
  }, 120_000)

  it('data agents answer over the protocol in conversation()', () => {
    const runs = fixture.reports.runs()
    for (const suite of ['python rows', 'typescript rows']) {
      const turns = runs.filter((r) => r.caseId === suite)
      expect(turns.map((r) => [r.turn, r.status, r.correct])).toEqual([
        [1, 'ok', true],
        [2, 'ok', true],
      ])
    }
  })
})

describe('no clean value in any written file', () => {
  it('a hospital run with noop writes none of the clean-only values', async () => {
    const { task } = await loadDataset({ id: 'hospital', seed: 1 })
    const dirtyValues = new Set(task.dirty.rows.flat())
    const cleanOnly = [...new Set(groundTruthOf(task).corrections.map((c) => c.clean))].filter(
      (v) => v.length >= 3 && !dirtyValues.has(v),
    )
    // Hospital's errors are mostly typos of values found elsewhere in the table: few values exist only clean.
    expect(cleanOnly.length).toBeGreaterThan(3)
    const res = await cli(['--agent', 'noop', '--dataset', 'hospital', '--trials', '2', '--min-passes', '1'])
    const files = walk(res.out)
    expect(files.map((f) => f.slice(res.out.length + 1)).sort()).toEqual([
      'manifest.json',
      'report.html',
      'report.json',
      'report.md',
      'runs.jsonl',
    ])
    for (const file of [...files, ...walk(fixture.reports.dir)]) {
      const text = readFileSync(file, 'utf8')
      const leaked = cleanOnly.filter((v) => text.includes(JSON.stringify(v)) || text.includes(`| ${v} |`))
      expect({ file, leaked }).toEqual({ file, leaked: [] })
      expect(text, file).not.toMatch(/"want"/)
    }
  })

  it('--reveal-truth writes got → want to its own file, on request only', async () => {
    const target = join(temp.make(), 'truth', 'hospital.jsonl')
    const res = await cli(['--agent', 'noop', '--dataset', 'hospital', '--reveal-truth', target])
    const revealed = readFileSync(target, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(revealed[0].missedRepair).toHaveLength(20)
    expect(revealed[0].missedRepair[0].want).toEqual(expect.any(String))
    expect(readFileSync(join(res.out, 'runs.jsonl'), 'utf8')).not.toMatch(/"want"/)
  })
})

function walk(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}
