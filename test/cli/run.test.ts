import { existsSync } from 'node:fs'
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateSynthetic, csvDigest } from '../../src/datasets/index.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { bundledDatasets } from '../helpers/dataset-paths.js'
import { formatNumber } from '../../src/stats/number-format.js'
import { readRuns, withoutVolatile } from '../helpers/runs.js'

async function readJson(path: string) {
  return JSON.parse(await readFile(path, 'utf8'))
}

describe('dataforge-evals run', () => {
  it('runs mock, noop and baseline on seeded synthetic data and writes exact, reproducible reports', async () => {
    await withTempDir(async (dir) => {
      const args = [
        'run',
        '--agent',
        'mock,noop',
        '--agent',
        'baseline',
        '--dataset',
        'synthetic',
        '--trials',
        '2',
        '--seed',
        '41',
        '--rows',
        '80',
      ]
      const first = await runCli([...args, '--output', 'a/r.md', '--output-json', 'a/r.json'], dir)
      expect(first.code, first.stderr).toBe(0)
      expect(first.stderr).toMatch(/\[1\/6\] mock × synthetic trial 1\/2 \(seed 41\): F1 1\.000/)
      // The terminal summary names each group's unit and count (two seeds made two datasets).
      expect(first.stdout).toMatch(/^group +units +F1 \(mean ± std\)/m)
      expect(first.stdout).toMatch(/^mock · synthetic +2 generated datasets +1\.000 ± 0\.000/m)
      const report = await readJson(join(dir, 'a/r.json'))
      expect(report.schemaVersion).toBe(1)
      expect(report.config).toMatchObject({ trials: 2, seed: 41, rows: 80 })
      expect(report.records).toHaveLength(6)
      for (const r of report.records) {
        for (const field of [
          'agent',
          'dataset',
          'trial',
          'seed',
          'status',
          'failureKind',
          'failureMessage',
          'precision',
          'recall',
          'f1',
          'tp',
          'fp',
          'fn',
          'steps',
          'fixes',
          'usage',
          'model',
          'runtimeS',
        ]) {
          expect(r, field).toHaveProperty(field)
        }
        expect(r.status).toBe('ok')
        expect([41, 42]).toContain(r.seed)
        expect(r.trial).toBe(r.seed - 41)
      }
      const mock = report.records.filter((r: { agent: string }) => r.agent === 'mock')
      expect(mock.map((r: { f1: number }) => r.f1)).toEqual([1, 1])
      // The oracle's fixes are the truth: never written to a file.
      expect(mock[0].fixes).toBeNull()
      const noop = report.records.find((r: { agent: string }) => r.agent === 'noop')
      expect(noop).toMatchObject({ tp: 0, fp: 0, precision: 1, recall: 0, f1: 0, correct: false })
      const baseline = report.aggregates.find((a: { agent: string }) => a.agent === 'baseline')
      expect(baseline).toMatchObject({ dataset: 'synthetic', trialsRequested: 2, trialsCompleted: 2 })
      for (const field of ['precisionMean', 'recallMean', 'f1Mean', 'f1Std'])
        expect(typeof baseline[field]).toBe('number')
      expect(baseline.f1Mean).toBeGreaterThan(0.1)

      // The seed in the report is the seed that made the data: regenerating with it gives the same bytes.
      const repro = report.reproducibility
      expect(repro.seeds).toEqual([41, 42])
      for (const d of repro.datasets) {
        expect(d.options).toEqual({ rows: 80, errorRate: 0.05 })
        const regenerated = generateSynthetic({ seed: d.seed, ...d.options })
        expect(d.dirty.sha256).toBe(csvDigest(regenerated.dirty).sha256)
        expect(d.clean.sha256).toBe(csvDigest(regenerated.clean).sha256)
      }
      for (const field of [
        'projectCommit',
        'datasets',
        'seeds',
        'models',
        'runDateUtc',
        'dependencyVersions',
        'nondeterminismNote',
      ]) {
        expect(repro).toHaveProperty(field)
      }
      expect(repro.dependencyVersions.vitest).toBe('4.1.12')
      expect(new Date(repro.runDateUtc).toISOString()).toBe(repro.runDateUtc)

      const md = await readFile(join(dir, 'a/r.md'), 'utf8')
      expect(md).toContain(
        '| agent | kind | dataset | units | F1 (mean ± std) | F1 [95% CI] | F1 pooled | P | R | Score: F1 ≥ 1 [95% CI] | trials done/asked |',
      )
      expect(md).toContain('Score is the share of attempted runs whose F1 reached `--pass-f1` (1).')
      expect(md).toMatch(
        /\| baseline \| baseline \| synthetic \| 2 generated datasets \| \d\.\d{3} ± \d\.\d{3} \| .* \| 2\/2 \|/,
      )
      // the generator's options are in the config and the reproducibility block: the report regenerates its data
      expect(md).toMatch(
        /\| synthetic \| synthetic \| \d+ \| errorRate 0\.05, rows 80 \| 80 × 11 \| CSV serialization \| `[0-9a-f]{64}` \|/,
      )
      for (const d of repro.datasets)
        expect([d.dirty.of, d.clean.of]).toEqual(['csv-serialization', 'csv-serialization'])
      expect(md).toContain('## Reproducibility')
      expect(md).toMatch(/compare only when dataset hashes, seeds, model ids and adapter code are identical/)
      const runs = readRuns(join(dir, 'a/r.runs.jsonl'))
      expect(runs).toHaveLength(6)
      const manifest = await readJson(join(dir, 'a/manifest.json'))
      expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual([
        'r.html',
        'r.json',
        'r.md',
        'r.runs.jsonl',
      ])
      expect((await runCli(['verify', join(dir, 'a')], dir)).code).toBe(0)

      // Same seeds, same scores: everything but timings and dates repeats.
      const second = await runCli([...args, '--output', 'b/r.md', '--output-json', 'b/r.json', '--quiet'], dir)
      expect(second.code).toBe(0)
      expect(second.stderr).toBe('')
      const again = await readJson(join(dir, 'b/r.json'))
      expect(again.records.map(withoutVolatile)).toEqual(report.records.map(withoutVolatile))
    })
  })

  it('scores the baseline on the canonical hospital set as the README publishes (P 0.957, R 0.880, F1 0.917) and records file hashes', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(
        ['run', '--agent', 'baseline', '--dataset', 'hospital', '--data-dir', bundledDatasets, '--quiet'],
        dir,
      )
      expect(res.code, res.stderr).toBe(0)
      const report = await readJson(join(dir, 'reports/run/report.json'))
      const [run] = report.records
      expect([run.precision, run.recall, run.f1].map((x: number) => formatNumber(x))).toEqual([
        '0.957',
        '0.880',
        '0.917',
      ])
      expect(run.tp + run.fn).toBe(509)
      const hospital = report.reproducibility.datasets[0]
      expect(hospital.dirty).toMatchObject({
        sha256: 'dbc5575b915fe8b5e0ac6dc6172f38ba91e611fdb76d09a8f4a81cb7ea9925ac',
        bytes: 303306,
        of: 'file-bytes',
      })
      expect(hospital.clean).toMatchObject({
        sha256: 'ea3ee44998455c0b491750c348509de176c758a3bbf58e4530c0a136bb248b4b',
        bytes: 303324,
        of: 'file-bytes',
      })
      expect(await readFile(join(dir, 'reports/run/report.md'), 'utf8')).toContain(
        '| 1000 × 20 | file bytes | `dbc5575b915fe8b5e0ac6dc6172f38ba91e611fdb76d09a8f4a81cb7ea9925ac` |',
      )
    })
  })

  it('records timeouts, exceptions and non-fix output as run failures and goes on', async () => {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'slow.ts'),
        `export default { name: 'slow', run: (_task: unknown, ctx: { signal: AbortSignal }) => new Promise((resolve) => { const t = setTimeout(() => resolve([]), 30_000); ctx.signal.addEventListener('abort', () => clearTimeout(t)) }) }\n`,
      )
      await writeFile(
        join(dir, 'throws.js'),
        `export const agent = { name: 'throws', run() { throw new Error('model exploded') } }\n`,
      )
      await writeFile(
        join(dir, 'garbage.mjs'),
        `export default { name: 'garbage', run: async () => 'here are my fixes' }\n`,
      )
      await writeFile(
        join(dir, 'sloppy.ts'),
        `export default { name: 'sloppy', run: () => ({ fixes: [{ row: 0, column: 'city', newValue: 'x' }, { row: 'one' }, 'nonsense'], steps: 3, model: 'hand-made' }) }\n`,
      )
      // Only the agent that never answers meets the short timeout: the others run without one, so a slow machine
      // cannot turn their results into timeouts.
      const timedOut = await runCli(
        [
          'run',
          '--agent',
          './slow.ts',
          '--dataset',
          'synthetic',
          '--rows',
          '30',
          '--timeout-s',
          '0.3',
          '--output',
          'slow/report.md',
          '--output-json',
          'slow/report.json',
        ],
        dir,
      )
      expect(timedOut.code).toBe(1)
      expect(timedOut.stderr).toContain('run failed: no trial scored: the one trial errored (timeout 1; first: ')
      const res = await runCli(
        ['run', '--agent', './throws.js,./garbage.mjs,./sloppy.ts,mock', '--dataset', 'synthetic', '--rows', '30'],
        dir,
      )
      expect(res.code, res.stderr).toBe(0)
      const report = await readJson(join(dir, 'reports/run/report.json'))
      const slowReport = await readJson(join(dir, 'slow/report.json'))
      const byAgent = Object.fromEntries(
        report.records.concat(slowReport.records).map((r: { agent: string }) => [r.agent, r]),
      )
      expect(byAgent.slow).toMatchObject({ status: 'failed', failureKind: 'timeout', f1: null, correct: null })
      expect(byAgent.slow.failureMessage).toMatch(/timed out after 0\.3 s/)
      expect(byAgent.throws).toMatchObject({
        status: 'failed',
        failureKind: 'exception',
        failureMessage: 'Error: model exploded',
      })
      expect(byAgent.garbage).toMatchObject({ status: 'failed', failureKind: 'invalid_output' })
      expect(byAgent.garbage.failureMessage).toMatch(/a string/)
      // Malformed fixes are false positives with warnings, never a crash.
      expect(byAgent.sloppy).toMatchObject({ status: 'ok', steps: 3, model: 'hand-made' })
      expect(byAgent.sloppy.fp).toBeGreaterThanOrEqual(3)
      expect(byAgent.sloppy.diagnostics.malformed).toHaveLength(2)
      expect(byAgent.mock).toMatchObject({ status: 'ok', f1: 1 })
      expect(await readFile(join(dir, 'slow/report.md'), 'utf8')).toMatch(
        /\| slow \| synthetic \| 1 \| 1 \| timeout \|/,
      )
      const md = await readFile(join(dir, 'reports/run/report.md'), 'utf8')
      expect(md).toMatch(/\| throws \| synthetic \| 1 \| 1 \| exception \| Error: model exploded \|/)

      // Fail closed: a run in which every trial errored scored nothing and exits 1 (the report is still written).
      const closed = await runCli(
        [
          'run',
          '--agent',
          './throws.js',
          '--dataset',
          'synthetic',
          '--rows',
          '30',
          '--trials',
          '2',
          '--quiet',
          '--output',
          'c/r.md',
          '--output-json',
          'c/r.json',
        ],
        dir,
      )
      expect(closed.code).toBe(1)
      expect(closed.stderr).toMatch(
        /^run failed: no trial scored: all 2 trials errored \(exception 2; first: [^\n]+ trial 1: Error: model exploded\)\n$/,
      )
      expect((await readJson(join(dir, 'c/r.json'))).records).toHaveLength(2)
    })
  })

  it('bad usage or input: exit 2, one line on stderr, nothing written', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'd.csv'), 'a,b\n1,2\n3,4\n')
      await writeFile(join(dir, 'c.csv'), 'a,b\n1,2\n')
      const cases: Array<[string[], RegExp]> = [
        [['run', '--dataset', 'synthetic'], /--agent is required/],
        [['run', '--agent', 'mock'], /--dataset is required/],
        [['run', '--agent', 'nobody', '--dataset', 'synthetic'], /unknown agent "nobody"/],
        [['run', '--agent', 'mock', '--dataset', 'synthetic', '--trials', '0'], /--trials must be ≥ 1/],
        [['run', '--agent', 'mock', '--dataset', 'synthetic', '--bogus'], /bogus/],
        [['run', '--agent', 'mock', '--dataset', 'nowhere'], /nowhere/],
        [
          ['run', '--agent', 'mock', '--dataset', 'pair', '--dirty-csv', 'd.csv', '--clean-csv', 'c.csv'],
          /d\.csv is 2 rows × 2 columns but .*c\.csv is 1 rows × 2 columns/,
        ],
        [['run', '--agent', 'mock', '--dataset', 'pair', '--dirty-csv', 'd.csv'], /go together/],
        [
          ['run', '--agent', 'mock', '--dirty-csv', 'd.csv', '--clean-csv', 'c.csv'],
          /dataforge-evals: run: a CSV pair needs a name, the dataset its reports group by: add --dataset NAME \(e\.g\. --dataset products\)/,
        ],
        [['run', '--agent', './missing-agent.ts', '--dataset', 'synthetic'], /missing-agent\.ts not found/],
        [['frobnicate'], /unknown command "frobnicate"/],
      ]
      for (const [argv, pattern] of cases) {
        const res = await runCli(argv, dir)
        expect(res.code, argv.join(' ')).toBe(2)
        expect(res.stderr, argv.join(' ')).toMatch(pattern)
        expect(res.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1)
        expect(res.stdout).toBe('')
      }
      expect((await readdir(dir)).sort()).toEqual(['c.csv', 'd.csv'])
    })
  })

  it('--min-passes gates on every case passing at least K of its trials', async () => {
    await withTempDir(async (dir) => {
      const base = ['run', '--dataset', 'synthetic', '--rows', '40', '--trials', '2', '--quiet']
      const oracle = await runCli([...base, '--agent', 'mock', '--min-passes', '2'], dir)
      expect(oracle.code, oracle.stderr).toBe(0)
      expect(oracle.stderr).toBe('repeat gate passed: the one case correct in at least 2 of its trials\n')
      const floor = await runCli([...base, '--agent', 'noop', '--min-passes', '1'], dir)
      expect(floor.code).toBe(1)
      expect(floor.stderr).toBe(
        'gate failed: noop · synthetic · synthetic: passed 0 of 2 trials, the repeat gate needs 1\n',
      )
      expect(existsSync(join(dir, 'reports/run/report.json'))).toBe(true)
      const lenient = await runCli([...base, '--agent', 'noop', '--pass-f1', '0', '--min-passes', '2'], dir)
      expect(lenient.code).toBe(0)
    })
  })

  it('grades a custom CSV pair named by --dataset', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(
        [
          'run',
          '--agent',
          'mock,noop',
          '--dataset',
          'products',
          '--dirty-csv',
          join(process.cwd(), 'fixtures/repair/products/dirty.csv'),
          '--clean-csv',
          join(process.cwd(), 'fixtures/repair/products/clean.csv'),
          '--quiet',
        ],
        dir,
      )
      expect(res.code, res.stderr).toBe(0)
      const report = await readJson(join(dir, 'reports/run/report.json'))
      expect(report.records.map((r: { dataset: string; fn: number; tp: number }) => [r.dataset, r.tp + r.fn])).toEqual([
        ['products', 12],
        ['products', 12],
      ])
    })
  })

  it('answers --help, --version, list-agents and list-datasets', async () => {
    await withTempDir(async (dir) => {
      const help = await runCli(['--help'], dir)
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(/Commands:[\s\S]*run[\s\S]*list-agents[\s\S]*compare/)
      expect((await runCli(['run', '--help'], dir)).stdout).toMatch(/--timeout-s T/)
      const version = await runCli(['--version'], dir)
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
      const agents = await runCli(['list-agents'], dir)
      expect(agents.code).toBe(0)
      const [repair, questions, presets] = agents.stdout.split('\n\n')
      expect(repair).toMatch(/^Repair agents \(dataforge-evals run --agent NAME\):\n/)
      expect(questions).toMatch(/^Question agents \(dataforge-evals qa --agent NAME\):\n/)
      expect(presets).toMatch(/^Provider presets \(run: the model repairs; qa: model-qa over the preset\):\n/)
      const namesIn = (section: string | undefined) =>
        (section ?? '')
          .split('\n')
          .slice(1)
          .map((line) => line.trim().split(/\s+/)[0])
      expect(namesIn(repair)).toEqual(['mock', 'noop', 'baseline'])
      expect(namesIn(questions)).toEqual(['data-agent', 'mock-qa', 'model-qa', 'noop-qa', 'refuse'])
      expect(namesIn(presets)).toEqual([
        'groq-llama-70b',
        'cerebras-llama',
        'openrouter',
        'gemini-flash',
        'local-ollama',
        'openai-compatible',
      ])
      expect(questions).toMatch(/ {2}model-qa +model +a model answers .*\(needs --provider\)\n/)
      const listed = JSON.parse((await runCli(['list-agents', '--json'], dir)).stdout) as Array<{
        name: string
        kind: string
        commands: string[]
      }>
      expect(listed.find((a) => a.name === 'baseline')).toMatchObject({ kind: 'baseline', commands: ['run'] })
      expect(listed.find((a) => a.name === 'mock-qa')).toMatchObject({ kind: 'oracle', commands: ['qa'] })
      expect(listed.find((a) => a.name === 'groq-llama-70b')).toMatchObject({ kind: 'model', commands: ['run', 'qa'] })
      // Every question agent listed is one qa accepts by that name.
      for (const a of listed.filter((x) => x.commands.join() === 'qa' && x.kind !== 'model')) {
        const res = await runCli(
          [
            'qa',
            '--agent',
            a.name,
            '--suite',
            'messy',
            '--limit',
            '1',
            '--quiet',
            '--output',
            `${a.name}/qa.md`,
            '--output-json',
            `${a.name}/qa.json`,
          ],
          dir,
        )
        expect(res.code, res.stderr).toBe(0)
      }
      const datasets = await runCli(['list-datasets', '--data-dir', bundledDatasets], dir)
      expect(datasets.code).toBe(0)
      expect(datasets.stdout).toMatch(/\| hospital \| 1000 × 20 \| 509 \|/)
      expect(datasets.stdout).toMatch(/\| flights \| 2376 × 7 \| 4920 \|/)
      expect(datasets.stdout).toMatch(/synthetic[^\n]*typo/)
      const bundled = await runCli(['list-datasets'], dir)
      expect(bundled.stdout).toMatch(/\| rayyan \| 1000 × 11 \| 948 \|/)
      expect(bundled.stdout).not.toMatch(/not downloaded/)
      expect(existsSync(join(dir, 'reports'))).toBe(false)
    })
  })
})
