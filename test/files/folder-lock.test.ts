import { execFileSync, spawn } from 'node:child_process'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { withTempDir } from '../helpers/cli-harness.js'

const jitiRegister = fileURLToPath(new URL('../../node_modules/jiti/lib/jiti-register.mjs', import.meta.url))
const lockModule = fileURLToPath(new URL('../../src/files/folder-lock.ts', import.meta.url))

const CONTENDERS = 8
const ROUNDS = 12

// One contender: in each round's folder it waits until every contender is ready, tries to take the folder's
// lock at once, writes what became of it, and (when it won) holds the lock until every contender has tried.
const CONTENDER = `
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { lockFolder } from ${JSON.stringify(lockModule)}
const [base, id, contenders, rounds] = process.argv.slice(2)
const n = Number(contenders)
const pause = new Int32Array(new SharedArrayBuffer(4))
const until = (dir, prefix) => {
  const deadline = Date.now() + 30_000
  while (readdirSync(dir).filter((f) => f.startsWith(prefix)).length < n) {
    if (Date.now() > deadline) throw new Error('barrier timed out')
    Atomics.wait(pause, 0, 0, 1)
  }
}
for (let r = 0; r < Number(rounds); r++) {
  const dir = join(base, 'r' + r)
  writeFileSync(join(dir, 'ready-' + id), '')
  until(dir, 'ready-')
  let lock = null
  let outcome
  try {
    lock = lockFolder(dir)
    outcome = 'won'
  } catch (error) {
    outcome = 'lost: ' + error.message
  }
  writeFileSync(join(dir, 'result-' + id), outcome)
  until(dir, 'result-')
  lock?.release()
}
`

function run(args: string[], cwd: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', jitiRegister, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
}

describe('the folder lock', () => {
  it('a stale lock taken over by many runs at once has exactly one winner', async () => {
    await withTempDir(async (dir) => {
      const dead = Number(
        execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }),
      )
      for (let r = 0; r < ROUNDS; r++) {
        await mkdir(join(dir, `r${r}`))
        await writeFile(
          join(dir, `r${r}`, '.dataforge.lock'),
          `${JSON.stringify({ pid: dead, host: hostname(), since: '2026-01-01T00:00:00.000Z' })}\n`,
        )
      }
      await writeFile(join(dir, 'contender.mts'), CONTENDER)
      const codes = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, i) =>
          run([join(dir, 'contender.mts'), dir, String(i), String(CONTENDERS), String(ROUNDS)], dir),
        ),
      )
      expect(codes).toEqual(Array(CONTENDERS).fill(0))
      for (let r = 0; r < ROUNDS; r++) {
        const folder = join(dir, `r${r}`)
        const outcomes = await Promise.all(
          (await readdir(folder)).filter((f) => f.startsWith('result-')).map((f) => readFile(join(folder, f), 'utf8')),
        )
        expect(
          outcomes.filter((o) => o === 'won'),
          `round ${r}: ${outcomes.join(' | ')}`,
        ).toHaveLength(1)
        for (const lost of outcomes.filter((o) => o !== 'won'))
          expect(lost).toMatch(/\.dataforge\.lock: another run \(pid \d+ on .*\) is writing this folder/)
        // Nothing is left behind: the winner released its lock, and no takeover file or temp file remains.
        expect((await readdir(folder)).filter((f) => !/^(ready|result)-/.test(f))).toEqual([])
      }
    })
  }, 120_000)
})
