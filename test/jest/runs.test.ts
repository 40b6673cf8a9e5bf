import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { runCli } from '../helpers/cli-harness.js'
import {
  AGENT_SPECS,
  AGENTS_EVAL,
  CONCURRENT_EVAL,
  CRASHING_EVAL,
  type DocumentedJestKind,
  installPackedWithJest,
  makeDocumentedJestProject,
  makeJestProject,
  NO_SETUP,
  runInstalledCli,
  runJest,
  typecheck,
} from '../helpers/jest-project.js'
import { type FixtureRun, repoRoot, reportFolder, runFixture } from '../helpers/vitest-run.js'
import { describeDabenchUnderJest } from './shared-install/dabench-qa.js'
import { describeHugeValues } from './shared-install/huge-values.js'

// Real Jest 30 on the parity evals of test/fixtures/vitest/jest-parity (plain matchers, evalCase with
// .concurrent and .fails, conversation, qaSuite) in three projects: CommonJS through ts-jest, native ESM through
// ts-jest, and CommonJS through babel-jest; the package installed from its packed tarball; against the same
// evals under Vitest.

let work: string
let vitestRun: FixtureRun

const DOCUMENTED: DocumentedJestKind[] = ['ts-jest', 'ts-jest-tsconfig', 'babel', 'ts-jest-esm']

/** Reporter options of the CommonJS runs: a threshold that fails, beside the fail-closed gate of the errored run. */
const GATED = JSON.stringify({ thresholds: { 'refuse*': { passRate: 0.5 } } })

/** A record without what differs between any two runs (time, date, commit). */
function stable(r: RunRecord): Partial<RunRecord> {
  const { runtimeS: _t, startedAt: _s, runDateUtc: _d, projectCommit: _c, ...rest } = r
  return rest
}

function byCase(records: RunRecord[]): Array<Partial<RunRecord>> {
  const key = (r: Partial<RunRecord>) => JSON.stringify([r.suite, r.caseId, r.agent, r.trial, r.turn])
  return records.map(stable).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** A run's records share one `runDateUtc`, the run's start: at or before every record's `startedAt`. */
function expectDatedAtStart(records: RunRecord[]): void {
  const dates = [...new Set(records.map((r) => r.runDateUtc))]
  expect(dates).toHaveLength(1)
  const starts = records.flatMap((r) => (r.startedAt ? [r.startedAt] : []))
  expect(starts.length).toBeGreaterThan(0)
  for (const start of starts) expect(Date.parse(dates[0]!)).toBeLessThanOrEqual(Date.parse(start))
}

/** The report's content apart from runtime, dates and which runner wrote it. */
function reportCore(dir: string) {
  const report = reportFolder(dir).report()
  return {
    records: byCase(report.records),
    aggregates: report.aggregates.map((a) => ({ ...a, runtimeS: undefined })),
    cases: report.cases,
  }
}

/** The gate lines a run printed. */
function gateLines(output: string): string[] {
  const at = output.indexOf('dataforge-evals gate failed:')
  if (at < 0) return []
  const lines = output.slice(at).split('\n').slice(1)
  const end = lines.findIndex((l) => !l.trim().startsWith('✗'))
  return lines.slice(0, end < 0 ? lines.length : end).map((l) => l.trim())
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-jest-'))
  const [, vitest] = await Promise.all([
    installPackedWithJest(work).then(() =>
      Promise.all([
        ...(['cjs', 'esm', 'babel'] as const).map((kind) => makeJestProject(join(work, kind), kind)),
        ...DOCUMENTED.map((kind) => makeDocumentedJestProject(join(work, `documented-${kind}`), kind)),
      ]),
    ),
    runFixture({ fixture: 'jest-parity', outputDir: join(work, 'vitest-reports'), cacheDir: join(work, 'vite-cache') }),
  ])
  vitestRun = vitest
}, 300_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('Jest with dataforge-evals/jest/setup and dataforge-evals/jest-reporter', () => {
  let cjsGates: string[] = []

  it('CommonJS (ts-jest): the same records and report as Vitest, the side files removed, a worker crash counts what it wrote', async () => {
    const project = join(work, 'cjs')
    expect(existsSync(join(work, 'node_modules/vitest')), 'a Jest project without Vitest').toBe(false)
    const jest = await runJest(work, project, [], { DF_REPORTER_OPTIONS: GATED })
    expect(jest.code, jest.output).toBe(1)
    expect(jest.output).toMatch(
      /dataforge-evals leaderboard[\s\S]*plain test · answers .* 3\/5 +0.60 \[0.23, 0.88\] +5\/5/,
    )
    cjsGates = gateLines(jest.output)
    expect(cjsGates).toEqual([
      expect.stringMatching(/1 of 25 eval runs errored/),
      expect.stringMatching(/refuse · wtq-refuse · number: passRate 0.000 is below the threshold 0.5/),
    ])
    expect(vitestRun.exitCode).toBe(1)
    const reports = join(project, 'evals/__reports__')
    expect(reportCore(reports)).toEqual(reportCore(vitestRun.reports.dir))
    for (const file of ['leaderboard.md', 'report.json', 'runs.jsonl', 'report.html', 'manifest.json'])
      expect(existsSync(join(reports, file)), file).toBe(true)
    expect(existsSync(join(reports, '.jest-runs')), 'side files removed').toBe(false)
    const records = reportFolder(reports).runs()
    // Dated as Vitest dates its records: when the run started.
    expectDatedAtStart(records)
    expectDatedAtStart(vitestRun.reports.runs())
    expect(records.find((r) => r.caseId === 'wrong > scored, then threw')).toMatchObject({
      status: 'ok',
      correct: false,
      validationError: 'the agent left a mess',
    })
    expect(reportFolder(reports).report().config).toMatchObject({ command: 'jest' })
    // evalCase and conversation: a test per trial and per turn, the same ids as under Vitest.
    expect(records.filter((r) => r.caseId === 'first cell').map((r) => [r.trial, r.seed, r.agent, r.correct])).toEqual([
      [0, 3, 'first-cell', true],
      [1, 4, 'first-cell', true],
    ])
    expect(records.find((r) => r.caseId === 'rate limited')).toMatchObject({
      status: 'failed',
      failureKind: 'rate_limited',
      failureMessage: 'slow down',
    })
    expect(records.filter((r) => r.caseId === 'shop talk').map((r) => [r.turn, r.suite, r.correct])).toEqual([
      [1, 'shop', true],
      [2, 'shop', true],
    ])
    // evalCase.concurrent: trial 2 asserts first and misses, trial 1 asserts after it and holds; each verdict on its own trial.
    expect(
      records
        .filter((r) => r.caseId === 'concurrent order')
        .map((r) => [r.trial, r.seed, r.correct, r.validationError]),
    ).toEqual([
      [0, 7, true, null],
      [1, 8, false, expect.stringMatching(/^toRepairCells: F1 0.000 is below 1/)],
    ])
    // evalCase.fails: Jest's test.failing passes (the floor missed as expected); the run is not correct.
    expect(jest.output).toMatch(/● concurrent order \[trial 2\/2/)
    expect(jest.output).not.toMatch(/● floor misses/)
    expect(records.find((r) => r.caseId === 'floor misses')).toMatchObject({
      status: 'ok',
      correct: false,
      validationError: expect.stringMatching(/^toRepairCells: F1 0.000/),
    })
    // qaSuite: built-in suites by name (wtq from its bundled files), a conversation's turns, trials, named agents.
    expect(
      records.filter((r) => r.suite === 'hard').map((r) => [r.caseId, r.turn, r.agent, r.agentKind, r.correct]),
    ).toEqual([
      ['hard-conv-customer-revenue', 1, 'mock-qa', 'oracle', true],
      ['hard-conv-customer-revenue', 2, 'mock-qa', 'oracle', true],
      ['hard-conv-customer-revenue', 3, 'mock-qa', 'oracle', true],
      ['hard-join4-top-country', null, 'mock-qa', 'oracle', true],
    ])
    expect(records.filter((r) => r.suite === 'wtq-refuse').map((r) => [r.trial, r.seed, r.correct])).toEqual([
      [0, 1, false],
      [1, 2, false],
      [0, 1, false],
      [1, 2, false],
    ])

    // The typings: the evals type-check against Jest's expect, and a wrong argument does not.
    const typed = await typecheck(work, project)
    expect(typed.code, typed.output).toBe(0)
    await writeFile(
      join(project, 'evals/mistyped.ts'),
      "import { expect } from '@jest/globals'\nimport 'dataforge-evals/jest'\nexpect(1).toBeNumeric('one')\n",
    )
    const mistyped = await typecheck(work, project)
    await rm(join(project, 'evals/mistyped.ts'))
    expect(mistyped.output).toMatch(/mistyped\.ts.*error TS2345/)

    // Workers forced (a memory limit makes Jest use them even for quick files); one is killed mid-file.
    // And one file does not load at all: the reporter names both.
    await writeFile(join(project, 'evals/crash.eval.ts'), CRASHING_EVAL)
    await writeFile(join(project, 'evals/broken.eval.ts'), "import './no-such-module'\n")
    const crashed = await runJest(work, project, ['--maxWorkers=2', '--workerIdleMemoryLimit=1GB'])
    await rm(join(project, 'evals/crash.eval.ts'))
    await rm(join(project, 'evals/broken.eval.ts'))
    expect(crashed.output).toMatch(/terminated by another process: signal=SIGKILL/)
    expect(crashed.output).toMatch(
      /2 eval files failed outside their tests \(a load error or a dead worker\); the report holds only what they recorded:\n {2}evals\/broken\.eval\.ts: Cannot find module '\.\/no-such-module'[^\n]*\n {2}evals\/crash\.eval\.ts: /,
    )
    expect(crashed.code).toBe(1)
    const afterCrash = reportFolder(reports).runs()
    expect(afterCrash.filter((r) => r.suite === 'crash')).toEqual([
      expect.objectContaining({ caseId: 'before the crash', correct: true, metrics: { toBeNumeric: 1 } }),
    ])
    expect(afterCrash).toHaveLength(records.length + 1)
  }, 120_000)

  it('native ESM: the same records as Vitest; a failing gate alone exits 1', async () => {
    const project = join(work, 'esm')
    const env = { NODE_OPTIONS: '--experimental-vm-modules' }
    const jest = await runJest(work, project, [], env)
    expect(jest.code, jest.output).toBe(1)
    expect(reportCore(join(project, 'evals/__reports__'))).toEqual(reportCore(vitestRun.reports.dir))

    // Only the passing tests: Jest alone would exit 0; the repeat gate (2 passes per case, 1 trial each) fails.
    // The case helpers' tests left out are skipped runs, as under Vitest (a qaSuite none of whose tests runs
    // never resolves its named agent under Jest, so its skipped runs do not know the agent's kind).
    const [passing, vitestFiltered] = await Promise.all([
      runJest(work, project, ['-t', '^answers'], env),
      runFixture({
        fixture: 'jest-parity',
        outputDir: join(work, 'vitest-filtered'),
        cacheDir: join(work, 'vite-cache'),
        testNamePattern: '^answers',
      }),
    ])
    expect(passing.code, passing.output).toBe(0)
    const qaSuites = new Set(['bespoke', 'hard', 'wtq-refuse'])
    const withoutKind = (records: RunRecord[]) =>
      byCase(records).map((r) =>
        r.status === 'skipped' && qaSuites.has(r.suite!)
          ? { ...r, agentKind: undefined, armId: undefined, configId: undefined }
          : r,
      )
    const filtered = reportFolder(join(project, 'evals/__reports__')).runs()
    expect(filtered.filter((r) => r.status === 'skipped')).toHaveLength(19)
    expect(withoutKind(filtered)).toEqual(withoutKind(vitestFiltered.reports.runs()))
    // Jest's -t leaves whole groups without runs: they are "not run" (one note), never below a threshold.
    const thresholds = { 'mock-qa*': { passRate: 1 }, '*': { completionRate: 1 } }
    const notRun = await runJest(work, project, ['-t', '^answers'], {
      ...env,
      DF_REPORTER_OPTIONS: JSON.stringify({ thresholds }),
    })
    expect(notRun.code, notRun.output).toBe(0)
    expect(notRun.output.match(/dataforge-evals note: not run: \d+ groups had no attempted run/g)).toHaveLength(1)
    expect(notRun.output).toMatch(/not checked: [^\n]*mock-qa · bespoke/)
    expect(notRun.output).not.toContain('no completed run')
    const gated = await runJest(work, project, ['-t', '^answers'], {
      ...env,
      DF_REPORTER_OPTIONS: JSON.stringify({ minPassesPerCase: 2 }),
    })
    expect(gated.output).toMatch(/Tests:\s+22 skipped, 3 passed/)
    expect(gated.output).toMatch(/dataforge-evals gate failed:[\s\S]*passed 1 of 1 trials, the repeat gate needs 2/)
    expect(gated.code).toBe(1)

    // A suite with one test run resolves its named agent first: its skipped turns record who would have answered.
    const partial = await runJest(work, project, ['-t', 'hard-join4'], env)
    expect(partial.code, partial.output).toBe(0)
    const hard = reportFolder(join(project, 'evals/__reports__'))
      .runs()
      .filter((r) => r.suite === 'hard')
    expect(hard.map((r) => [r.caseId, r.turn, r.status, r.agent, r.agentKind])).toEqual([
      ['hard-conv-customer-revenue', 1, 'skipped', 'mock-qa', 'oracle'],
      ['hard-conv-customer-revenue', 2, 'skipped', 'mock-qa', 'oracle'],
      ['hard-conv-customer-revenue', 3, 'skipped', 'mock-qa', 'oracle'],
      ['hard-join4-top-country', null, 'ok', 'mock-qa', 'oracle'],
    ])
    expect(new Set(hard.map((r) => r.armId)).size).toBe(1)
  }, 120_000)

  it('babel-jest (preset-env + preset-typescript): the same report as Vitest; agents by name, module and command as the CLI runs them; a missing setup named', async () => {
    const project = join(work, 'babel')
    const jest = await runJest(work, project, [])
    expect(jest.code, jest.output).toBe(1)
    expect(reportCore(join(project, 'evals/__reports__'))).toEqual(reportCore(vitestRun.reports.dir))

    // Jest's CommonJS runtime: the named agent in the worker, the module and the command each in an isolated
    // child process; the same records as `dataforge-evals run` with the same agents and seeds.
    await cp(join(repoRoot, 'fixtures/agents'), join(project, 'agents'), { recursive: true })
    await writeFile(join(project, 'evals/agents.eval.ts'), AGENTS_EVAL)
    await writeFile(join(project, 'evals/concurrent.eval.ts'), CONCURRENT_EVAL)
    const agentsDir = join(work, 'agents-reports')
    const agents = await runJest(work, project, ['evals/agents', 'evals/concurrent'], {
      DF_REPORTER_OPTIONS: JSON.stringify({ outputDir: agentsDir }),
    })
    expect(agents.code, agents.output).toBe(1)
    expect(agents.output).toMatch(/Tests:\s+1 failed, 7 passed/)
    // Plain test.concurrent: each verdict on its own test, though they asserted in the reverse order.
    const concurrent = reportFolder(agentsDir)
      .runs()
      .filter((r) => r.suite === 'concurrent')
      .map((r) => [r.caseId, r.correct, Object.keys(r.metrics)])
    expect(concurrent.sort()).toEqual([
      ['concurrent > first started, asserts last', true, ['toBeNumeric']],
      ['concurrent > second started, asserts first', false, ['toContainAnswer']],
    ])
    const cliDir = join(work, 'cli-run')
    const cli = await runInstalledCli(work, project, [
      'run',
      '--agent',
      AGENT_SPECS.join(','),
      '--dataset',
      'synthetic',
      '--trials',
      '2',
      '--seed',
      '5',
      '--pass-f1',
      '0',
      '--quiet',
      '--output',
      join(cliDir, 'report.md'),
      '--output-json',
      join(cliDir, 'report.json'),
    ])
    expect(cli.code, cli.output).toBe(0)
    const fromJest = reportFolder(agentsDir)
      .runs()
      .filter((r) => r.suite === 'synthetic')
    expect(fromJest.map((r) => [r.agent, r.trial, r.isolated]).sort()).toEqual([
      ['baseline', 0, false],
      ['baseline', 1, false],
      ['example-python', 0, true],
      ['example-python', 1, true],
      ['example-typescript', 0, true],
      ['example-typescript', 1, true],
    ])
    expect(fromJest.find((r) => r.agent === 'example-python')).toMatchObject({
      agentSource: 'cmd:python3 agents/example_agent.py',
      agentSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(byCase(fromJest)).toEqual(byCase(reportFolder(cliDir).runs()))

    // Without the setup entry: the helpers refuse to register, a plain test using a matcher fails, both naming the fix.
    await mkdir(join(project, 'no-setup'))
    await writeFile(join(project, 'jest.no-setup.config.js'), NO_SETUP.config)
    await writeFile(join(project, 'no-setup/helper.eval.ts'), NO_SETUP.helper)
    await writeFile(join(project, 'no-setup/plain.eval.ts'), NO_SETUP.plain)
    const bare = await runJest(work, project, ['--config', 'jest.no-setup.config.js'])
    expect(bare.code).toBe(1)
    const fix =
      "needs dataforge-evals' Jest setup: add 'dataforge-evals/jest/setup' to setupFilesAfterEnv in your Jest config"
    expect(bare.output).toContain(`evalCase ${fix}`)
    expect(bare.output).toContain(`dataforge-evals/jest ${fix}`)
    expect(bare.output).not.toMatch(/is not a function/)
  }, 120_000)

  it('--shard: each shard keeps its records; merge-shards writes the unsharded report with the same gates and exit code', async () => {
    const project = join(work, 'cjs')
    const reports = join(project, 'evals/__reports__')
    await rm(reports, { recursive: true, force: true })
    const shards = []
    // One after the other into one report folder, as on one machine (CI machines would each send their shard file).
    for (const i of [1, 2])
      shards.push(await runJest(work, project, [`--shard=${i}/2`], { DF_REPORTER_OPTIONS: GATED }))
    const shardDir = `${reports}.jest-shards`
    expect((await readdir(shardDir)).sort()).toEqual(['shard-1-of-2.json', 'shard-2-of-2.json'])
    // Each shard's own report holds its files only.
    expect(reportFolder(reports).runs().length).toBeLessThan(25)

    const merged = await runInstalledCli(work, project, ['merge-shards', shardDir])
    expect(merged.code, merged.output).toBe(1)
    expect(gateLines(merged.output)).toEqual(cjsGates)
    expect(merged.output).toMatch(/merged 25 runs into .*evals\/__reports__/)
    expect(reportCore(reports)).toEqual(reportCore(vitestRun.reports.dir))
    expect(reportFolder(reports).report().config).toMatchObject({
      command: 'jest',
      thresholds: { 'refuse*': { passRate: 0.5 } },
    })
    // The merged run started when its first shard did.
    expectDatedAtStart(reportFolder(reports).runs())
    const shardStarts = await Promise.all(
      [1, 2].map(async (i) => JSON.parse(await readFile(join(shardDir, `shard-${i}-of-2.json`), 'utf8')).runDateUtc),
    )
    expect(reportFolder(reports).runs()[0]!.runDateUtc).toBe(shardStarts.sort()[0])
    expect((await runInstalledCli(work, project, ['verify', reports])).code).toBe(0)

    // A shard missing, or given twice: exit 2 naming it.
    const missing = await runCli(['merge-shards', join(shardDir, 'shard-2-of-2.json')], project)
    expect(missing).toMatchObject({ code: 2, stderr: 'dataforge-evals: missing shard 1/2: merge needs all 2 shards\n' })
    const twice = await runCli(['merge-shards', shardDir, join(shardDir, 'shard-1-of-2.json')], project)
    expect(twice.code).toBe(2)
    expect(twice.stderr).toMatch(/shard-1-of-2\.json: shard 1\/2 given twice/)
    // Shards of differently configured runs or of another commit, and a file that is not a shard: refused, naming the file.
    const other = join(work, 'other-config')
    await mkdir(other)
    const second = JSON.parse(await readFile(join(shardDir, 'shard-2-of-2.json'), 'utf8'))
    await writeFile(
      join(other, 'shard-2-of-2.json'),
      JSON.stringify({ ...second, options: { thresholds: { '*': { passRate: 1 } } } }),
    )
    await writeFile(join(other, 'shard-3-of-3.json'), '{"format": "something else"}')
    const mixed = await runCli(
      ['merge-shards', join(shardDir, 'shard-1-of-2.json'), join(other, 'shard-2-of-2.json')],
      project,
    )
    expect(mixed).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /other-config\/shard-2-of-2\.json: reporter options differ from .*shard-1-of-2\.json's/,
      ),
    })
    await writeFile(
      join(other, 'later-commit.json'),
      JSON.stringify({ ...second, project: { commit: 'f'.repeat(40), dirty: false } }),
    )
    const later = await runCli(
      ['merge-shards', join(shardDir, 'shard-1-of-2.json'), join(other, 'later-commit.json')],
      project,
    )
    expect(later).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /later-commit\.json: ran on commit f{40}, .*shard-1-of-2\.json on \(none\); merge the shards of one run/,
      ),
    })
    const foreign = await runCli(['merge-shards', join(other, 'shard-3-of-3.json')], project)
    expect(foreign).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/shard-3-of-3\.json: not a dataforge-evals Jest shard file/),
    })
  }, 120_000)
})

describe('the Jest setup of docs/jest.md followed literally, in a "type": "commonjs" project (and in a "type": "module" one)', () => {
  /** Runs Jest in the documented project of `kind` (as the page says, with --experimental-vm-modules for ESM); returns its output without colours and its records. */
  async function runDocumented(kind: DocumentedJestKind) {
    const project = join(work, `documented-${kind}`)
    const jest = await runJest(
      work,
      project,
      [],
      kind === 'ts-jest-esm' ? { NODE_OPTIONS: '--experimental-vm-modules' } : {},
    )
    const records = reportFolder(join(project, 'evals/__reports__')).runs()
    return {
      code: jest.code,
      output: stripVTControlCharacters(jest.output),
      evals: records.map((r) => [r.suite, r.caseId, r.status, r.correct]).sort(),
    }
  }
  const documentedEvals = [
    ['answers', 'revenue', 'ok', true],
    ['synthetic', 'shared bar', 'ok', true],
  ]

  for (const kind of ['ts-jest', 'ts-jest-tsconfig'] as const) {
    const setup = kind === 'ts-jest' ? 'without a tsconfig.json' : 'with a CommonJS tsconfig.json'
    it(`ts-jest ${setup}: the package's types found (node10 resolution), a wrong argument refused, ./x.js imports mapped`, async () => {
      const { code, output, evals } = await runDocumented(kind)
      expect(output).toMatch(
        /mistyped\.eval\.ts:4:\d+ - error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/,
      )
      expect(output).not.toMatch(/TS2307|TS2339|Cannot find module/)
      expect(output).toMatch(/Tests:\s+2 passed, 2 total/)
      expect(code).toBe(1)
      expect(evals).toEqual(documentedEvals)
    }, 120_000)
  }

  it('babel-jest with the page’s Babel config: the same evals pass', async () => {
    const { code, output, evals } = await runDocumented('babel')
    expect(output).toMatch(/Tests:\s+2 passed, 2 total/)
    expect(code, output).toBe(0)
    expect(evals).toEqual(documentedEvals)
  }, 120_000)

  it('native ESM with the page’s `export default` config and tsconfig.json: the same evals pass, and tsc type-checks them', async () => {
    const { code, output, evals } = await runDocumented('ts-jest-esm')
    expect(output).not.toMatch(/exports is not defined|TS151001|TS151002/)
    expect(output).toMatch(/Tests:\s+2 passed, 2 total/)
    expect(code, output).toBe(0)
    expect(evals).toEqual(documentedEvals)
    const tsc = await typecheck(work, join(work, 'documented-ts-jest-esm'))
    expect(tsc.output).toBe('')
    expect(tsc.code).toBe(0)
  }, 120_000)
})

// More Jest runs on the same install (one install of the packed package and Jest is most of such a test's cost).
describeHugeValues(() => work)
describeDabenchUnderJest(() => work)
