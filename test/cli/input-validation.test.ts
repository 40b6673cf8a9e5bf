import { spawnSync } from 'node:child_process'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { cliCommand } from '../helpers/cli-child.js'
import { makeRecord } from '../helpers/stats-records.js'

// Issue 26 item 9: where a one-line input error with exit 2 is promised, hostile run files and a hostile
// machine (full disk, read-only folder) gave internal errors (exit 1), ENOENT, or were accepted silently.

const jsonl = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('')
/** A valid record with `over` laid on it unchecked (the fixture's builder validates, and these are hostile). */
const good = (over: Partial<RunRecord> = {}) => ({
  ...makeRecord({ caseId: 'c1', tp: 3, fp: 1, fn: 0, precision: 0.75, recall: 1, f1: 6 / 7 }),
  ...over,
})

/** Expects exactly one stderr line naming the file, the line and the field. */
function expectInputError(r: { code: number; stderr: string }, file: string, line: number, field: string): void {
  expect(r.code).toBe(2)
  expect(r.stderr.split('\n')).toHaveLength(2)
  expect(r.stderr).toContain(`${file}: line ${line}: field "${field}"`)
  expect(r.stderr).not.toMatch(/internal error/)
}

describe('run files: counts are non-negative integers, rates lie in [0, 1]', () => {
  it('report --html on a record with tp −5 is exit 2 naming file, line and field', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'bad.jsonl'), jsonl([good(), good({ tp: -5 })]))
      const r = await runCli(['report', 'bad.jsonl', '--html', 'out/r.html'], dir)
      expectInputError(r, 'bad.jsonl', 2, 'tp')
      expect(r.stderr).toMatch(/non-negative integer/)
      await expect(readdir(join(dir, 'out'))).rejects.toThrow() // nothing written
    })
  })

  it('compare and corpus merge refuse f1 = 7, precision −0.1, a fractional fn and a perColumn recall of 2', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'a.jsonl'), jsonl([good()]))
      const cases: Array<[Partial<RunRecord>, string]> = [
        [{ f1: 7 }, 'f1'],
        [{ precision: -0.1 }, 'precision'],
        [{ fn: 2.5 }, 'fn'],
        [{ perColumn: { city: { tp: 1, fp: 0, fn: 0, precision: 1, recall: 2, f1: 1 } } }, 'perColumn.city.recall'],
      ]
      for (const [over, field] of cases) {
        await writeFile(join(dir, 'b.jsonl'), `\n${jsonl([good(over)])}`)
        const compare = await runCli(['compare', 'a.jsonl', 'b.jsonl'], dir)
        expectInputError(compare, 'b.jsonl', 2, field)
        expect(compare.stdout).toBe('')
        const merge = await runCli(['corpus', 'merge', 'a.jsonl', 'b.jsonl', '--out', 'merged'], dir)
        expectInputError(merge, 'b.jsonl', 2, field)
      }
      expect((await readdir(dir)).sort()).toEqual(['a.jsonl', 'b.jsonl'])
    })
  })

  it('the rates of a good record are accepted at both bounds', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'a.jsonl'), jsonl([good({ tp: 0, fp: 0, fn: 4, precision: 1, recall: 0, f1: 0 })]))
      const r = await runCli(['corpus', 'merge', 'a.jsonl', '--out', 'merged'], dir)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
    })
  })
})

describe('corpus merge --out', () => {
  it('an existing file is exit 2 naming it, and nothing is written', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'a.jsonl'), jsonl([good()]))
      await writeFile(join(dir, 'taken'), 'mine\n')
      const r = await runCli(['corpus', 'merge', 'a.jsonl', '--out', 'taken'], dir)
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(
        'dataforge-evals: --out taken: is a file, not a folder; give a folder for the merged views\n',
      )
      expect((await readdir(dir)).sort()).toEqual(['a.jsonl', 'taken'])
    })
  })

  it('writes the views and manifest as one unit, leaving no lock or temp file', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'a.jsonl'), jsonl([good()]))
      expect((await runCli(['corpus', 'merge', 'a.jsonl', '--out', 'm'], dir)).code).toBe(0)
      expect((await readdir(join(dir, 'm'))).sort()).toEqual([
        'history.jsonl',
        'latest.jsonl',
        'manifest.json',
        'snapshot.jsonl',
      ])
      expect((await runCli(['verify', 'm'], dir)).code).toBe(0)
    })
  })
})

// A full disk and a read-only folder, for real: a 64 KiB tmpfs and a read-only bind mount in a private mount
// namespace (unshare -m, as root), the CLI running inside it from the sources.
const canMount =
  spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt'], { stdio: 'ignore' })
    .status === 0

function cliInNamespace(dir: string, setup: string, argv: string[]): { code: number | null; stderr: string } {
  const cli = [...cliCommand(), ...argv]
  const quoted = cli.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const r = spawnSync('unshare', ['-m', 'sh', '-c', `set -e; cd '${dir}'; ${setup}; exec ${quoted}`], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  })
  return { code: r.status, stderr: r.stderr }
}

describe.skipIf(!canMount)('a hostile machine', () => {
  it('a full disk is named ENOSPC with the file, exit 2, not an internal error', { timeout: 60_000 }, async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'full'))
      const r = cliInNamespace(dir, 'mount -t tmpfs -o size=64k tmpfs full', [
        'run',
        '--agent',
        'noop',
        '--dataset',
        'synthetic',
        '--rows',
        '3000',
        '--quiet',
        '--output-json',
        'full/r/report.json',
        '--output',
        'full/r/report.md',
      ])
      expect(r.stderr).not.toMatch(/internal error/)
      expect(r.stderr).toMatch(/full\/r\/\S+: cannot [a-z ]+: no space left on device \(ENOSPC\)\n$/)
      expect(r.code).toBe(2)
    })
  })

  it('a read-only folder is named EROFS, also where a subfolder would be created, exit 2', {
    timeout: 60_000,
  }, async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'ro'))
      const setup = 'mount --bind ro ro && mount -o remount,bind,ro ro'
      const sub = cliInNamespace(dir, setup, [
        'run',
        '--agent',
        'noop',
        '--dataset',
        'synthetic',
        '--rows',
        '20',
        '--quiet',
        '--output-json',
        'ro/r/report.json',
        '--output',
        'ro/r/report.md',
      ])
      expect(sub.stderr).toMatch(/ro\/r: cannot create the report folder: read-only file system \(EROFS\)\n$/)
      expect(sub.code).toBe(2)
      await writeFile(join(dir, 'a.jsonl'), jsonl([good()]))
      const merge = cliInNamespace(dir, setup, ['corpus', 'merge', 'a.jsonl', '--out', 'ro'])
      expect(merge.stderr).toMatch(/ro: cannot write in this folder: read-only file system \(EROFS\)\n$/)
      expect(merge.code).toBe(2)
    })
  })
})

describe('--agent-network none with a model upstream', () => {
  it('is exit 2 before any agent starts, saying the sandbox cuts the gateway off too (run and qa, flag and environment)', async () => {
    await withTempDir(async (dir) => {
      const run = await runCli(
        [
          'run',
          '--agent',
          './absent-agent.mjs',
          '--dataset',
          'synthetic',
          '--agent-network',
          'none',
          '--llm',
          'http://127.0.0.1:9/v1',
        ],
        dir,
      )
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('--agent-network none cuts an isolated agent off from the model gateway too')
      expect(run.stderr).toContain('--llm http://127.0.0.1:9/v1')
      const qa = await runCli(
        ['qa', '--suite', 'bespoke', '--agent', './absent-agent.mjs', '--agent-network', 'none'],
        dir,
        { DATAFORGE_LLM: 'http://127.0.0.1:9/v1' },
      )
      expect(qa.code).toBe(2)
      expect(qa.stderr).toContain('through DATAFORGE_LLM=http://127.0.0.1:9/v1 could not be made')
      expect(await readdir(dir)).toEqual([])
    })
  })
})

describe('every bad flag is exit 2 up front, whether or not --llm is given', () => {
  it('--prices, --llm-budget, --llm-key-env and --cache are checked for run, qa and conformance without --llm: nothing made, nothing run', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'samples.jsonl'), '{"a": "x"}\n')
      await writeFile(
        join(dir, 'spec.json'),
        JSON.stringify({ properties: [{ name: 'a', field: 'a', distribution: { x: 1 } }] }),
      )
      const commands = [
        ['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '20', '--quiet'],
        ['qa', '--agent', 'mock-qa', '--suite', 'bespoke', '--quiet'],
        ['conformance', '--samples', 'samples.jsonl', '--spec', 'spec.json'],
      ]
      const bad: Array<[string[], RegExp]> = [
        [['--prices', '/nonexistent.json'], /price file \/nonexistent\.json cannot be read/],
        [['--llm-budget', 'tokens=-1'], /--llm-budget/],
        [['--llm-budget', 'seconds=3'], /--llm-budget: "seconds=3" is not FIELD=NUMBER/],
        [['--llm-key-env', 'MY KEY'], /--llm-key-env: "MY KEY" is not an environment variable's name/],
        [['--cache', 'sometimes'], /--cache: "sometimes" is not a cache mode/],
      ]
      for (const argv of commands) {
        for (const [flags, message] of bad) {
          const r = await runCli([...argv, ...flags], dir)
          expect(r.code, `${argv[0]} ${flags.join(' ')}: ${r.stderr}`).toBe(2)
          expect(r.stderr).toMatch(message)
          expect(r.stderr.trim().split('\n')).toHaveLength(1)
        }
      }
      const prices = await runCli(['run', '--agent', 'baseline', '--dataset', 'synthetic', '--concurrency', '0'], dir)
      expect(prices.code).toBe(2)
      expect(prices.stderr).toMatch(/--concurrency must be ≥ 1/)
      expect((await readdir(dir)).sort()).toEqual(['samples.jsonl', 'spec.json'])
    })
  })
})
