import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compileCached, packageCacheDir } from '../../../src/report-builder/html/code-cache.js'

const work = mkdtempSync(join(tmpdir(), 'dataforge-code-cache-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const LIBRARY = `/*000*/
  function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
  exports.answer = function answer() { return fib(20) + require('offset') }
`
const MTIME = new Date('2026-01-01T00:00:00Z')
let copies = 0

/**
 * The library as another process reads it: V8 keeps what it compiled in this process and would hand it back for
 * the same text without looking at the cache, so each copy differs in a comment of the same length. The length
 * and the file's modification time name the cache file, and V8 checks the length: the cache fits every copy.
 */
function writeLibrary(path: string, extra = ''): void {
  writeFileSync(path, LIBRARY.replace('000', String(++copies).padStart(3, '0')) + extra)
  utimesSync(path, MTIME, MTIME)
}

function runLibrary(path: string, cacheDir: string | null) {
  const script = compileCached(path, cacheDir)
  const module = { exports: {} as { answer?: () => number } }
  script.run(module.exports, module, (id) => (id === 'offset' ? 1 : undefined))
  return { script, answer: module.exports.answer!() }
}

describe('compileCached', () => {
  it('runs a script, writes its code cache after use, and takes it in the next compile', () => {
    const path = join(work, 'library.js')
    writeLibrary(path)
    const cacheDir = join(work, 'cache-a')
    const first = runLibrary(path, cacheDir)
    expect(first.script.fromCache).toBe(false)
    expect(first.answer).toBe(6766)
    first.script.save()
    expect(readdirSync(cacheDir)).toHaveLength(1)
    writeLibrary(path)
    const second = runLibrary(path, cacheDir)
    expect(second.script.fromCache).toBe(true)
    expect(second.answer).toBe(6766)
  })

  it('compiles as without a cache when the cache is damaged, and writes a good one', () => {
    const path = join(work, 'damaged.js')
    writeLibrary(path)
    const cacheDir = join(work, 'cache-b')
    runLibrary(path, cacheDir).script.save()
    const [name] = readdirSync(cacheDir)
    writeFileSync(join(cacheDir, name!), 'not a code cache')
    writeLibrary(path)
    const damaged = runLibrary(path, cacheDir)
    expect(damaged.script.fromCache).toBe(false)
    expect(damaged.answer).toBe(6766)
    damaged.script.save()
    writeLibrary(path)
    expect(runLibrary(path, cacheDir).script.fromCache).toBe(true)
  })

  it('keys the cache by the file: another build of it gets another cache file', () => {
    const path = join(work, 'rebuilt.js')
    const cacheDir = join(work, 'cache-c')
    writeLibrary(path)
    runLibrary(path, cacheDir).script.save()
    writeLibrary(path, 'exports.more = 1\n')
    const rebuilt = runLibrary(path, cacheDir)
    expect(rebuilt.script.fromCache).toBe(false)
    rebuilt.script.save()
    expect(readdirSync(cacheDir)).toHaveLength(2)
  })

  it('leaves a folder it cannot write alone, and compiles without a cache when given none', () => {
    const path = join(work, 'blocked.js')
    writeLibrary(path)
    const blocked = join(work, 'a-file')
    writeFileSync(blocked, '')
    const run = runLibrary(path, join(blocked, 'cache'))
    expect(() => run.script.save()).not.toThrow()
    const none = runLibrary(path, null)
    expect(none.script.fromCache).toBe(false)
    none.script.save()
    expect(none.answer).toBe(6766)
  })
})

describe('packageCacheDir', () => {
  it("is node_modules/.cache/dataforge-evals of the project's node_modules", () => {
    expect(packageCacheDir(join('/p', 'node_modules', 'vega', 'build', 'vega.js'))).toBe(
      join('/p', 'node_modules', '.cache', 'dataforge-evals'),
    )
    expect(
      packageCacheDir(join('/p', 'node_modules', '.pnpm', 'vega@6.2.0', 'node_modules', 'vega', 'build', 'vega.js')),
    ).toBe(join('/p', 'node_modules', '.cache', 'dataforge-evals'))
    expect(packageCacheDir(join('/opt', 'vega', 'build', 'vega.js'))).toBeNull()
  })
})
