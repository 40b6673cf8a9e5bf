import { createHmac } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { finished, spawnCli } from '../helpers/cli-child.js'
import { writeManifest } from '../../src/report-builder/manifest.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 26 item 7: a forged record appended to runs.partial.jsonl (tp 99999, more errors than the dataset has)
// was kept by --resume and the resulting folder passed verify. The journal is now an HMAC chain with a per-run
// key kept in the state folder, outside the report folder and the agents' environment; each record is also
// checked against what the run can have produced.

const ARGS = [
  '--dataset',
  'synthetic',
  '--rows',
  '30',
  '--trials',
  '3',
  '--seed',
  '5',
  '--quiet',
  '--output',
  'r/r.md',
  '--output-json',
  'r/r.json',
  '--agent-env',
  'HANG',
  '--agent-env',
  'JOURNAL',
]

// Proposes one fix per trial; with HANG set, trial 1 appends a forged record to the journal (when it can) and
// never answers, so the run can be killed with trial 0 journaled.
const FORGER_MODULE = `import { appendFileSync, readFileSync } from 'node:fs'
export default {
  name: 'forger',
  run(task, ctx) {
    if (process.env.HANG && ctx.trial === 1) {
      try {
        const journal = process.env.JOURNAL
        const line = readFileSync(journal, 'utf8').split('\\n')[0]
        const record = JSON.parse(line).record
        appendFileSync(journal, JSON.stringify({ ...record, trial: 1, seed: 6, tp: 99999, f1: 1 }) + '\\n')
        console.error('forger: wrote the journal')
      } catch (error) {
        console.error('forger: denied ' + error.code)
      }
      return new Promise(() => {})
    }
    return [{ row: ctx.seed % 7, column: task.columns[1], newValue: 'v' + ctx.seed }]
  },
}
`
// The same agent as a program speaking the protocol itself (any language; here Node without the runner).
const FORGER_CMD = `const { appendFileSync, readFileSync } = require('node:fs')
const rl = require('node:readline').createInterface({ input: process.stdin })
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n')
send({ type: 'ready', protocol: 1, name: 'forger' })
rl.on('line', (text) => {
  const m = JSON.parse(text)
  if (m.type !== 'repair') return
  if (process.env.HANG && m.trial === 1) {
    const journal = process.env.JOURNAL
    const record = JSON.parse(readFileSync(journal, 'utf8').split('\\n')[0]).record
    appendFileSync(journal, JSON.stringify({ ...record, trial: 1, seed: 6, tp: 99999, f1: 1 }) + '\\n')
    console.error('forger: wrote the journal')
    return
  }
  send({ type: 'result', id: m.id, fixes: [{ row: m.seed % 7, column: m.task.columns[1], newValue: 'v' + m.seed }] })
})
`

async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`gave up waiting for ${what}`)
}

/** Starts a run whose agent forges (or tries to) on trial 1, waits for its attempt, and kills the run. */
async function forgedRun(dir: string, agent: string, env: Record<string, string>, extra: string[] = []) {
  const journal = join(dir, 'r', 'r.runs.partial.jsonl')
  const child = spawnCli(['run', '--agent', agent, ...ARGS, ...extra], dir, { ...env, HANG: '1', JOURNAL: journal })
  let stderr = ''
  child.stderr!.on('data', (d) => {
    stderr += d
  })
  const done = finished(child)
  await waitFor(() => /forger: (wrote|denied)/.test(stderr), "the agent's forging attempt")
  child.kill('SIGKILL')
  await done
  return { stderr, journal }
}

const sealedLines = async (path: string) => (await readFile(path, 'utf8')).split('\n').filter(Boolean)

describe('the run journal is sealed', () => {
  it('a cmd: agent that appends a forged record to the journal: --resume refuses it, naming the line', {
    timeout: 120_000,
  }, async () => {
    await withTempDir(async (dir) => {
      const state = join(dir, 'state')
      await writeFile(join(dir, 'forger.cjs'), FORGER_CMD)
      // At the process level a cmd: agent runs unrestricted (the sandbox would not even show it the folder).
      const { stderr, journal } = await forgedRun(
        dir,
        `cmd:${process.execPath} forger.cjs`,
        { DATAFORGE_STATE_DIR: state },
        ['--isolate', 'process'],
      )
      expect(stderr).toMatch(/forger: wrote the journal/) // an unsandboxed program can write the folder…
      expect(await sealedLines(journal)).toHaveLength(2)
      const resumed = await runCli(['run', '--resume', 'r', '--quiet'], dir, { DATAFORGE_STATE_DIR: state })
      expect(resumed.code).toBe(2) // …but cannot seal what it wrote
      expect(resumed.stderr).toMatch(/runs\.partial\.jsonl: line 2: not a sealed journal line/)
      expect(existsSync(join(dir, 'r', 'r.json'))).toBe(false)
    })
  })

  it('a module agent cannot write the journal at all (permission model); the resumed run is the real one', {
    timeout: 120_000,
  }, async () => {
    await withTempDir(async (dir) => {
      const state = join(dir, 'state')
      await writeFile(join(dir, 'forger.mjs'), FORGER_MODULE)
      const { stderr, journal } = await forgedRun(dir, './forger.mjs', { DATAFORGE_STATE_DIR: state })
      expect(stderr).toMatch(/forger: denied ERR_ACCESS_DENIED/)
      expect(await sealedLines(journal)).toHaveLength(1)
      const resumed = await runCli(['run', '--resume', 'r', '--quiet'], dir, { DATAFORGE_STATE_DIR: state })
      expect(resumed.stderr).toBe('')
      expect(resumed.code).toBe(0)
      const records = JSON.parse(await readFile(join(dir, 'r', 'r.json'), 'utf8')).records as Array<{
        tp: number
        trial: number
      }>
      expect(records.map((r) => r.trial)).toEqual([0, 1, 2])
      expect(records.every((r) => r.tp <= 30 * 8)).toBe(true)
      expect((await runCli(['verify', 'r'], dir)).code).toBe(0)
      // The run's key is gone with the journal.
      expect(await readdir(join(state, 'run-keys'))).toEqual([])
    })
  })

  it('an edited line, a deleted middle line, a reordered journal and a changed plan are each refused', {
    timeout: 120_000,
  }, async () => {
    await withTempDir(async (dir) => {
      const state = join(dir, 'state')
      await writeFile(join(dir, 'forger.mjs'), FORGER_MODULE.replace('ctx.trial === 1', 'ctx.trial === 2'))
      // Kill at trial 2: trials 0 and 1 are journaled.
      const journalPath = join(dir, 'r', 'r.runs.partial.jsonl')
      const child = spawnCli(['run', '--agent', './forger.mjs', ...ARGS], dir, {
        DATAFORGE_STATE_DIR: state,
        HANG: '1',
        JOURNAL: journalPath,
      })
      let err = ''
      child.stderr!.on('data', (d) => {
        err += d
      })
      const done = finished(child)
      await waitFor(() => /forger: denied/.test(err), 'trial 2')
      child.kill('SIGKILL')
      await done
      const lines = await sealedLines(journalPath)
      expect(lines).toHaveLength(2)
      const planPath = join(dir, 'r', 'r.run.partial.json')
      const plan = await readFile(planPath, 'utf8')
      const resume = () => runCli(['run', '--resume', 'r', '--quiet'], dir, { DATAFORGE_STATE_DIR: state })
      const attempt = async (journal: string, planText = plan) => {
        await writeFile(journalPath, journal)
        await writeFile(planPath, planText)
        return resume()
      }

      const edited = await attempt(`${lines[0]!.replace(/"tp":\d+/, '"tp":99999')}\n${lines[1]}\n`)
      expect(edited.code).toBe(2)
      expect(edited.stderr).toMatch(/line 1: the record's seal does not match/)
      const reordered = await attempt(`${lines[1]}\n${lines[0]}\n`)
      expect(reordered.stderr).toMatch(/line 1: the record's seal does not match/)
      const dropped = await attempt(`${lines[1]}\n`)
      expect(dropped.stderr).toMatch(/line 1: the record's seal does not match/)
      const planned = JSON.parse(plan)
      const passF1 = await attempt(
        `${lines.join('\n')}\n`,
        JSON.stringify({ ...planned, options: { ...planned.options, 'pass-f1': '0' } }),
      )
      expect(passF1.code).toBe(2)
      expect(passF1.stderr).toMatch(/run\.partial\.json: the plan's seal does not match/)

      // Sealed with the real key (what only the harness holds), a record the run cannot have produced is still
      // refused: more errors than the dataset has, and a trial outside the run's grid.
      const key = Buffer.from(
        (await readFile(join(state, 'run-keys', `${planned.journalKey}.key`), 'utf8')).trim(),
        'hex',
      )
      const seal = (previous: string, record: object) => {
        const json = JSON.stringify(record)
        const mac = createHmac('sha256', key).update(previous).update('\n').update(json).digest('hex')
        return { mac, line: `{"mac":"${mac}","record":${json}}` }
      }
      const first = JSON.parse(lines[0]!).record
      const seed7 = planned.datasets.find((d: { seed: number }) => d.seed === 7)
      const data7 = { datasetSha256: { dirty: seed7.dirty, clean: seed7.clean } }
      const lastMac = JSON.parse(lines[1]!).mac as string
      const forged = seal(lastMac, {
        ...first,
        ...data7,
        trial: 2,
        seed: 7,
        tp: 99999,
        fp: 0,
        fn: 0,
        precision: 1,
        recall: 1,
        f1: 1,
        correct: true,
        detection: null,
        perColumn: null,
      })
      const tooMany = await attempt(`${lines.join('\n')}\n${forged.line}\n`)
      expect(tooMany.code, tooMany.stderr).toBe(2)
      expect(tooMany.stderr).toMatch(
        /line 3: fields "tp" \+ "fn" = 99999 errors, but the dataset has \d+ cells that differ from the clean data; this run cannot have produced it/,
      )
      const offGrid = seal(lastMac, { ...first, trial: 7, seed: 12 })
      const outside = await attempt(`${lines.join('\n')}\n${offGrid.line}\n`)
      expect(outside.stderr).toMatch(
        /line 3: fields "trial", "seed": trial 7 with seed 12 is not in the run's 3 trials from seed 5/,
      )
      const ratio = seal(lastMac, { ...first, ...data7, trial: 2, seed: 7, f1: first.f1 === 1 ? 0.5 : 1 })
      expect((await attempt(`${lines.join('\n')}\n${ratio.line}\n`)).stderr).toMatch(
        /line 3: field "f1" is .* but tp \d+, fp \d+, fn \d+ give/,
      )

      // The untouched journal resumes.
      const ok = await attempt(`${lines.join('\n')}\n`)
      expect(ok.stderr).toBe('')
      expect(ok.code).toBe(0)
    })
  })
})

describe('verify checks what a run can have produced', () => {
  it('a forged record written consistently into runs.jsonl, report.json and the manifest fails verify, naming the row', {
    timeout: 60_000,
  }, async () => {
    await withTempDir(async (dir) => {
      expect(
        (
          await runCli(
            ['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '20', '--trials', '2', '--quiet'],
            dir,
          )
        ).code,
      ).toBe(0)
      const folder = join(dir, 'reports', 'run')
      const report = JSON.parse(await readFile(join(folder, 'report.json'), 'utf8'))
      const forge = (r: Record<string, unknown>, i: number) =>
        i === 1
          ? { ...r, tp: 99999, fp: 0, fn: 0, precision: 1, recall: 1, f1: 1, detection: null, perColumn: null }
          : r
      report.records = report.records.map(forge)
      await writeFile(join(folder, 'report.json'), JSON.stringify(report))
      await writeFile(join(folder, 'runs.jsonl'), report.records.map((r: unknown) => `${JSON.stringify(r)}\n`).join(''))
      await writeManifest(
        folder,
        (await readdir(folder)).filter((f) => f !== 'manifest.json'),
      )
      const r = await runCli(['verify', 'reports/run'], dir)
      expect(r.code).toBe(1)
      expect(r.stdout + r.stderr).toMatch(
        /runs\.jsonl: row 2: fields "tp" \+ "fn" = 99999 errors, but the dataset has \d+ cells/,
      )
      expect(r.stdout + r.stderr).toMatch(/report\.json: records\[1\]: fields "tp" \+ "fn" = 99999/)
    })
  })
})
