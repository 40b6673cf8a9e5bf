import { existsSync } from 'node:fs'
import { link, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { finished, spawnCli } from '../helpers/cli-child.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { readRuns, withoutVolatile } from '../helpers/runs.js'

// An agent that proposes one fix per trial and, when HANG_FROM is set, never answers from that trial on:
// the run can be killed with some trials finished and the rest not started.
const STEPPER = `export default {
  name: 'stepper',
  run(task, ctx) {
    if (process.env.HANG_FROM && ctx.trial >= Number(process.env.HANG_FROM)) return new Promise(() => {})
    return [{ row: ctx.seed % 7, column: task.columns[1], newValue: 'v' + ctx.seed }]
  },
}
`
const ARGS = [
  'run',
  '--agent',
  './stepper.mjs,baseline',
  '--dataset',
  'synthetic',
  '--rows',
  '40',
  '--trials',
  '4',
  '--seed',
  '3',
  '--agent-env',
  'HANG_FROM',
]

const stable = withoutVolatile

async function linesOf(path: string): Promise<number> {
  if (!existsSync(path)) return 0
  return (await readFile(path, 'utf8')).split('\n').filter(Boolean).length
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`gave up waiting for ${what}`)
}

/**
 * Starts a run whose stepper agent hangs from trial `hangFrom` on, waits until that many trials are in the
 * report's journal (`journal`: the folder and the journal's name, runs.partial.jsonl for the stem `report`), then
 * sends `signal`.
 */
async function interruptedRun(dir: string, journal: string, argv: string[], hangFrom: number, signal: NodeJS.Signals) {
  await writeFile(join(dir, 'stepper.mjs'), STEPPER)
  const child = spawnCli(argv, dir, { HANG_FROM: String(hangFrom) })
  const done = finished(child)
  await until(async () => (await linesOf(join(dir, journal))) >= hangFrom, `${hangFrom} journaled trials`)
  child.kill(signal)
  return done
}

describe('resumable runs', () => {
  it('a run killed with SIGKILL keeps its finished trials; --resume runs only the rest and gives the uninterrupted records', async () => {
    await withTempDir(async (dir) => {
      // Trials run dataset by dataset, agent by agent: stepper trials 0 and 1 finish, trial 2 hangs.
      const killed = await interruptedRun(
        dir,
        'cut/r.runs.partial.jsonl',
        [...ARGS, '--output', 'cut/r.md', '--output-json', 'cut/r.json'],
        2,
        'SIGKILL',
      )
      expect(killed.signal).toBe('SIGKILL')
      const left = (await readdir(join(dir, 'cut'))).sort()
      expect(left).toEqual(['.dataforge.lock', 'r.run.partial.json', 'r.runs.partial.jsonl'])
      expect(await linesOf(join(dir, 'cut/r.runs.partial.jsonl'))).toBe(2)

      // A fresh run into the folder would throw the journal away: refused, naming the way out.
      const fresh = await runCli([...ARGS, '--output', 'cut/r.md', '--output-json', 'cut/r.json'], dir)
      expect(fresh.code).toBe(2)
      expect(fresh.stderr).toMatch(
        /holds an interrupted run \(r\.run\.partial\.json\); finish it with dataforge-evals run --resume cut\/r,/,
      )

      // Flags given again must agree with the recorded ones (paths compare resolved).
      const resumed = await runCli(['run', '--resume', 'cut', '--trials', '4', '--output-json', './cut/r.json'], dir)
      expect(resumed.code, resumed.stderr).toBe(0)
      // Only the six missing cells ran (stepper trials 3-4, baseline trials 1-4); the dead run's lock was taken over.
      expect(resumed.stderr).toMatch(/^\[1\/6\] stepper × synthetic trial 3\/4 \(seed 5\)/)
      expect(resumed.stderr).not.toMatch(/\[7\//)
      expect((await readdir(join(dir, 'cut'))).sort()).toEqual([
        'manifest.json',
        'r.html',
        'r.json',
        'r.md',
        'r.runs.jsonl',
      ])
      expect((await runCli(['verify', 'cut'], dir)).code).toBe(0)

      const whole = await runCli([...ARGS, '--output', 'whole/r.md', '--output-json', 'whole/r.json', '--quiet'], dir)
      expect(whole.code, whole.stderr).toBe(0)
      const a = JSON.parse(await readFile(join(dir, 'cut/r.json'), 'utf8'))
      const b = JSON.parse(await readFile(join(dir, 'whole/r.json'), 'utf8'))
      expect(a.records).toHaveLength(8)
      expect(a.records.map(stable)).toEqual(b.records.map(stable))
      const runs = readRuns(join(dir, 'cut/r.runs.jsonl')).map(stable)
      expect(runs).toEqual(b.records.map(stable))
    })
  }, 60_000)

  it('SIGINT stops a run with its journal intact and says how to resume', async () => {
    await withTempDir(async (dir) => {
      const res = await interruptedRun(dir, 'reports/run/runs.partial.jsonl', ARGS, 1, 'SIGINT')
      expect(res.code).toBe(130)
      expect(res.stderr).toMatch(
        /run interrupted: 1 trial is saved in reports\/run\/runs\.partial\.jsonl; resume with: dataforge-evals run --resume reports\/run/,
      )
      expect((await readdir(join(dir, 'reports/run'))).sort()).toEqual(['run.partial.json', 'runs.partial.jsonl'])
    })
  }, 60_000)

  it('refuses to resume when options, agents or data differ (exit 2, naming the difference)', async () => {
    await withTempDir(async (dir) => {
      await interruptedRun(dir, 'reports/run/runs.partial.jsonl', ARGS, 1, 'SIGKILL')

      const trials = await runCli(['run', '--resume', 'reports/run', '--trials', '5'], dir)
      expect(trials.code).toBe(2)
      expect(trials.stderr).toMatch(/--trials differs from the recorded run \(recorded "4", given "5"\)/)
      const cache = await runCli(['run', '--resume', 'reports/run'], dir, { DATAFORGE_CACHE: 'replay' })
      expect(cache.code).toBe(2)
      expect(cache.stderr).toMatch(/\$DATAFORGE_CACHE differs from the recorded run \(recorded not set, now "replay"\)/)
      const plan = JSON.parse(await readFile(join(dir, 'reports/run/run.partial.json'), 'utf8'))

      plan.agents[0].model = 'another-model'
      await writeFile(join(dir, 'reports/run/run.partial.json'), JSON.stringify(plan))
      const model = await runCli(['run', '--resume', 'reports/run'], dir)
      expect(model.code).toBe(2)
      expect(model.stderr).toMatch(/agent 1 \(stepper\) model was "another-model", now "null"/)

      // The agent's module edited since the run started: its code hash differs.
      plan.agents[0].model = null
      await writeFile(join(dir, 'reports/run/run.partial.json'), JSON.stringify(plan))
      await writeFile(join(dir, 'stepper.mjs'), `${STEPPER}// edited\n`)
      const edited = await runCli(['run', '--resume', 'reports/run'], dir)
      expect(edited.code).toBe(2)
      expect(edited.stderr).toMatch(
        /agent 1 \(stepper\) code \(sha256 of its module or script\) was "[0-9a-f]{64}", now "[0-9a-f]{64}"/,
      )
      await writeFile(join(dir, 'stepper.mjs'), STEPPER)

      plan.agents[0].model = null
      plan.datasets[0].dirty = 'f'.repeat(64)
      await writeFile(join(dir, 'reports/run/run.partial.json'), JSON.stringify(plan))
      const data = await runCli(['run', '--resume', 'reports/run'], dir)
      expect(data.code).toBe(2)
      expect(data.stderr).toMatch(/dataset synthetic \(seed 3\) dirty sha256 changed since the run started/)

      const nothing = await runCli(['run', '--resume', 'elsewhere'], dir)
      expect(nothing.code).toBe(2)
      expect(nothing.stderr).toMatch(/nothing to resume/)
    })
  }, 60_000)
})

describe('several interrupted runs in one folder', () => {
  it('each keeps its own journal under its stem; --resume takes the stem (or a file of the report), the folder alone is ambiguous', async () => {
    await withTempDir(async (dir) => {
      await interruptedRun(dir, 'reports/a.runs.partial.jsonl', [...ARGS, '--output', 'reports/a.md'], 1, 'SIGKILL')
      await interruptedRun(
        dir,
        'reports/b.runs.partial.jsonl',
        [...ARGS, '--output', 'reports/b.md', '--trials', '2'],
        1,
        'SIGKILL',
      )
      expect((await readdir(join(dir, 'reports'))).sort()).toEqual([
        '.dataforge.lock',
        'a.run.partial.json',
        'a.runs.partial.jsonl',
        'b.run.partial.json',
        'b.runs.partial.jsonl',
      ])
      const ambiguous = await runCli(['run', '--resume', 'reports'], dir)
      expect(ambiguous.code).toBe(2)
      expect(ambiguous.stderr).toMatch(
        /reports holds 2 interrupted runs \(a, b\); name one: dataforge-evals run --resume .*reports\/a/,
      )
      const a = await runCli(['run', '--resume', 'reports/a', '--quiet'], dir)
      expect(a.code, a.stderr).toBe(0)
      expect(a.stdout).toContain(
        'wrote reports/a.md, reports/a.html, reports/a.json, reports/a.runs.jsonl, reports/manifest.json',
      )
      const b = await runCli(['run', '--resume', 'reports/b.md', '--quiet'], dir)
      expect(b.code, b.stderr).toBe(0)
      expect((await readdir(join(dir, 'reports'))).sort()).toEqual([
        'a.html',
        'a.json',
        'a.md',
        'a.runs.jsonl',
        'b.html',
        'b.json',
        'b.md',
        'b.runs.jsonl',
        'manifest.json',
      ])
      expect(JSON.parse(await readFile(join(dir, 'reports/a.json'), 'utf8')).records).toHaveLength(8)
      expect(JSON.parse(await readFile(join(dir, 'reports/b.json'), 'utf8')).records).toHaveLength(4)
      expect((await runCli(['verify', 'reports'], dir)).code).toBe(0)
    })
  }, 90_000)
})

describe('the journal is the folder’s own file', () => {
  it('a fresh run refuses a symlink or a hard link where its journal goes (exit 2, naming it) and leaves the target as it was', async () => {
    await withTempDir(async (dir) => {
      const journal = join(dir, 'reports/run/runs.partial.jsonl')
      await mkdir(join(dir, 'reports/run'), { recursive: true })
      await writeFile(join(dir, 'victim.txt'), 'keep me\n')
      await symlink(join(dir, 'victim.txt'), journal)
      const viaSymlink = await runCli(
        ['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '20', '--quiet'],
        dir,
      )
      expect(viaSymlink.code, viaSymlink.stderr).toBe(2)
      expect(viaSymlink.stderr).toMatch(
        /reports\/run\/runs\.partial\.jsonl: is a symlink; refusing to write through it/,
      )
      await rename(journal, join(dir, 'gone'))
      await link(join(dir, 'victim.txt'), journal)
      const viaHardLink = await runCli(
        ['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '20', '--quiet'],
        dir,
      )
      expect(viaHardLink.code, viaHardLink.stderr).toBe(2)
      expect(viaHardLink.stderr).toMatch(
        /reports\/run\/runs\.partial\.jsonl: is a hard link \(2 names for one file\); refusing to write through it/,
      )
      expect(await readFile(join(dir, 'victim.txt'), 'utf8')).toBe('keep me\n')
    })
  })

  it('--resume refuses a journal replaced by a symlink (it would cut or append to the target): exit 2, the target unchanged', async () => {
    await withTempDir(async (dir) => {
      await interruptedRun(dir, 'reports/run/runs.partial.jsonl', ARGS, 1, 'SIGKILL')
      const journal = join(dir, 'reports/run/runs.partial.jsonl')
      // The sealed line and half a line: a resume that followed the link would cut the target at its last newline.
      const victim = `${await readFile(journal, 'utf8')}half a line`
      await writeFile(join(dir, 'victim.jsonl'), victim)
      await rename(journal, join(dir, 'journal.bak'))
      await symlink(join(dir, 'victim.jsonl'), journal)
      const res = await runCli(['run', '--resume', 'reports/run'], dir)
      expect(res.code, res.stderr).toBe(2)
      expect(res.stderr).toMatch(/runs\.partial\.jsonl: is a symlink; refusing to write through it/)
      expect(await readFile(join(dir, 'victim.jsonl'), 'utf8')).toBe(victim)
    })
  }, 60_000)
})

describe('a closed stdout or stderr', () => {
  it('ends output quietly and still writes the reports', async () => {
    await withTempDir(async (dir) => {
      const child = spawnCli(
        ['run', '--agent', 'baseline,noop', '--dataset', 'synthetic', '--rows', '30', '--trials', '3'],
        dir,
      )
      child.stdout!.destroy()
      child.stderr!.destroy()
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
      expect(code).toBe(0)
      expect((await readdir(join(dir, 'reports/run'))).sort()).toEqual([
        'manifest.json',
        'report.html',
        'report.json',
        'report.md',
        'runs.jsonl',
      ])
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)
    })
  }, 60_000)
})

describe('the run journal', () => {
  it('treats a rate-limited trial as not done, so a resumed run asks the model again', async () => {
    const { makeRecord } = await import('../helpers/stats-records.js')
    const { RunJournal, readRecordedRun } = await import('../../src/run/resume.js')
    await withTempDir(async (dir) => {
      const runDateUtc = '2026-01-01T00:00:00.000Z'
      const keys = join(dir, 'state')
      const journal = RunJournal.fresh(
        { dir, stem: 'report' },
        { cwd: dir, options: { agent: ['a'], trials: '3' }, runDateUtc },
        keys,
      )
      const sha = makeRecord({}).datasetSha256!
      const info = (seed: number) =>
        ({ id: 'd', seed, dirty: { sha256: sha.dirty }, clean: { sha256: sha.clean }, dirtyCells: 10 }) as never
      await journal.begin([{ name: 'a', run: () => [] }], [info(1), info(2), info(3)])
      const ok = makeRecord({ agent: 'a', dataset: 'd', trial: 0, seed: 1, runDateUtc })
      const limited = makeRecord({
        agent: 'a',
        dataset: 'd',
        trial: 1,
        seed: 2,
        status: 'failed',
        failureKind: 'rate_limited',
        correct: null,
        completed: false,
        runDateUtc,
      })
      journal.add(ok)
      journal.add(limited)
      journal.close()
      // A kill -9 in the middle of a line: that line is dropped (and that trial runs again).
      await writeFile(
        join(dir, 'runs.partial.jsonl'),
        `${await readFile(join(dir, 'runs.partial.jsonl'), 'utf8')}{"recordVers`,
      )
      const read = readRecordedRun({ dir, stem: 'report' }, keys)
      expect(read.records).toHaveLength(2)
      const resumed = RunJournal.resume(read)
      expect(resumed.has({ agent: 'a', dataset: 'd', trial: 0, seed: 1 })).toBe(true)
      expect(resumed.has({ agent: 'a', dataset: 'd', trial: 1, seed: 2 })).toBe(false)
      expect(resumed.has({ agent: 'a', dataset: 'd', trial: 2, seed: 3 })).toBe(false)
    })
  })
})
