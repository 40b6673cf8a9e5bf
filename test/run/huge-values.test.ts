import { createHash } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_VALUE_CHARS } from '../../src/core/value-cap.js'
import { finished, spawnCli } from '../helpers/cli-child.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 26 item 1: an agent returning 2 fixes of 20 M characters per trial made a 153 MB report folder per trial;
// with more trials the run died with `RangeError: Invalid string length`, no reports, and --resume failed the same
// way. Records now keep at most MAX_VALUE_CHARS characters of a value, with its full length and sha256 noted.

const N = 20_000_000
const fullSha = createHash('sha256').update('x'.repeat(N)).digest('hex')

const MODULE = `export default {
  name: 'huge',
  run(task, ctx) {
    if (process.env.HANG && ctx.trial >= 2) return new Promise(() => {})
    return [0, 1].map((row) => ({ row, column: task.columns[1], newValue: 'x'.repeat(${N}) }))
  },
}
`
const CMD = `const rl = require('node:readline').createInterface({ input: process.stdin })
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n')
send({ type: 'ready', protocol: 1, name: 'huge-cmd' })
rl.on('line', (text) => {
  const m = JSON.parse(text)
  if (m.type !== 'repair') return
  if (process.env.HANG && m.trial >= 2) return
  send({ type: 'result', id: m.id, fixes: [0, 1].map((row) => ({ row, column: m.task.columns[1], newValue: 'x'.repeat(${N}) })) })
})
`
const ARGS = [
  '--dataset',
  'synthetic',
  '--rows',
  '20',
  '--trials',
  '4',
  '--quiet',
  '--output',
  'r/r.md',
  '--output-json',
  'r/r.json',
]

async function folderBytes(dir: string): Promise<number> {
  let total = 0
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size
  return total
}

async function expectCutReports(dir: string, agents: number): Promise<void> {
  const report = JSON.parse(await readFile(join(dir, 'r', 'r.json'), 'utf8'))
  expect(report.records).toHaveLength(4 * agents)
  for (const r of report.records) {
    expect(r.fixes).toHaveLength(2)
    expect(r.fixes[0].newValue).toHaveLength(MAX_VALUE_CHARS)
    expect(r.warnings).toContain(
      `value cut: fixes[0].newValue has ${N} characters (sha256 ${fullSha}); the record keeps the first ${MAX_VALUE_CHARS}`,
    )
    expect(r.warnings.join('\n')).toMatch(
      /value cut: diagnostics\.(overRepair|wrongValue)\[0\]\.got has 20000000 characters/,
    )
  }
  // Each report says so: how many values, to what size, and where their full length and sha256 are.
  const cut = report.records.reduce(
    (n: number, r: { warnings: string[] }) => n + r.warnings.filter((w) => w.startsWith('value cut: ')).length,
    0,
  )
  const said = `${cut} values in ${4 * agents} runs were cut to their first ${MAX_VALUE_CHARS} characters`
  expect(await readFile(join(dir, 'r', 'r.md'), 'utf8')).toMatch(
    new RegExp(
      `## Values cut\n\n> ${said} \\(\`diagnostics\\.(overRepair|wrongValue)\\[\\]\\.got\`, \`fixes\\[\\]\\.newValue\`\\)`,
    ),
  )
  expect(await readFile(join(dir, 'r', 'r.html'), 'utf8')).toContain(
    `<strong>Values cut:</strong> ${said} (<code>diagnostics.`,
  )
  // Every format written, small; the folder verifies.
  expect((await readdir(join(dir, 'r'))).sort()).toEqual(['manifest.json', 'r.html', 'r.json', 'r.md', 'r.runs.jsonl'])
  expect(await folderBytes(join(dir, 'r'))).toBeLessThan(8 * 1024 * 1024)
  expect((await runCli(['verify', 'r'], dir)).code).toBe(0)
}

describe('huge agent values', () => {
  it('a module agent and a cmd: agent with 2 fixes of 20 M characters per trial: reports written, values cut and noted', {
    timeout: 240_000,
  }, async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'huge.mjs'), MODULE)
      await writeFile(join(dir, 'huge.cjs'), CMD)
      const r = await runCli(['run', '--agent', `./huge.mjs,cmd:${process.execPath} huge.cjs`, ...ARGS], dir)
      expect(r.stderr).not.toMatch(/internal error|RangeError/)
      expect([0, 1], r.stderr).toContain(r.code) // the gate may fail: the fixes are wrong; the run itself works
      await expectCutReports(dir, 2)
      // The terminal summary says it too, in one line.
      expect(r.stdout).toMatch(
        /^Values cut: \d+ values in 8 runs were cut to their first 10000 characters \(.*\); their full length and sha256 are in runs\.jsonl\.$/m,
      )
    })
  })

  it('a run killed mid-way resumes from its journal of cut records', { timeout: 240_000 }, async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'huge.cjs'), CMD)
      const state = join(dir, 'state')
      const child = spawnCli(['run', '--agent', `cmd:${process.execPath} huge.cjs`, ...ARGS], dir, {
        HANG: '1',
        DATAFORGE_STATE_DIR: state,
      })
      const done = finished(child)
      const journal = join(dir, 'r', 'r.runs.partial.jsonl')
      for (let i = 0; i < 6000; i++) {
        const lines = await readFile(journal, 'utf8').then(
          (t) => t.split('\n').filter(Boolean).length,
          () => 0,
        )
        if (lines >= 2) break
        await new Promise((res) => setTimeout(res, 20))
      }
      child.kill('SIGKILL')
      await done
      expect((await stat(journal)).size).toBeLessThan(1024 * 1024)
      const resumed = await runCli(['run', '--resume', 'r', '--quiet'], dir, { DATAFORGE_STATE_DIR: state })
      expect(resumed.stderr).not.toMatch(/internal error|RangeError/)
      expect([0, 1]).toContain(resumed.code)
      await expectCutReports(dir, 1)
    })
  })
})
