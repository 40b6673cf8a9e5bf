import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeFileAtomicSync } from '../../src/files/write-atomic.js'

const work = mkdtempSync(join(tmpdir(), 'dataforge-write-sync-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('writeFileAtomicSync', () => {
  it('makes the folder, writes through a temp file and leaves only the file', () => {
    const path = join(work, 'a', 'b', 'data.bin')
    writeFileAtomicSync(path, 'first')
    writeFileAtomicSync(path, Buffer.from('second'))
    expect(readFileSync(path, 'utf8')).toBe('second')
    expect(readdirSync(join(work, 'a', 'b'))).toEqual(['data.bin'])
  })

  it('throws what the file system threw, and leaves no temp file', () => {
    const blocker = join(work, 'blocker')
    writeFileSync(blocker, '')
    expect(() => writeFileAtomicSync(join(blocker, 'x', 'data.bin'), 'x')).toThrow(/ENOTDIR|EEXIST/)
    const folder = join(work, 'target-is-a-folder')
    writeFileAtomicSync(join(folder, 'inner'), 'x')
    expect(() => writeFileAtomicSync(folder, 'x')).toThrow()
    expect(readdirSync(work).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
