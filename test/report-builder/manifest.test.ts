import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import { sha256Hex } from '../../src/core/hash.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { addToManifest, verifyDir, writeManifest } from '../../src/report-builder/manifest.js'
import { buildManifest } from '../../src/report-builder/manifest-build.js'
import { makeRecord } from '../helpers/stats-records.js'
import { captureIO } from '../helpers/cli-harness.js'

const capture = captureIO

const records: RunRecord[] = [
  makeRecord({ caseId: 'a', configId: 'cfg-a', f1: 0.75 }),
  makeRecord({ caseId: 'b', configId: 'cfg-b', correct: false }),
  makeRecord({ caseId: 'a', configId: 'cfg-a', trial: 1 }),
]
const runsText = records.map((r) => JSON.stringify(r)).join('\n') + '\n'
const reportText = `${JSON.stringify({ schemaVersion: 1, records }, null, 2)}\n`

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-manifest-'))
  await writeFile(join(dir, 'runs.jsonl'), runsText)
  await writeFile(join(dir, 'report.json'), reportText)
  await writeFile(join(dir, 'report.md'), '# report\n')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function flipByte(file: string, at: (bytes: Buffer) => number): Promise<void> {
  const bytes = await readFile(file)
  const i = at(bytes)
  bytes[i] = bytes[i]! ^ 0x01
  await writeFile(file, bytes)
}

describe('writeManifest', () => {
  it('records sha256, size, row counts and config ids', async () => {
    const m = await writeManifest(dir, [join(dir, 'runs.jsonl'), 'report.json', 'report.md'])
    expect(m.files.map((f) => f.path)).toEqual(['report.json', 'report.md', 'runs.jsonl'])
    const runs = m.files.find((f) => f.path === 'runs.jsonl')!
    expect(runs.sha256).toBe(sha256Hex(runsText))
    expect(runs.bytes).toBe(Buffer.byteLength(runsText))
    expect(m.rowCounts).toEqual({ 'report.json': 3, 'runs.jsonl': 3 })
    expect(m.configIds).toEqual(['cfg-a', 'cfg-b'])
    const onDisk = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))
    expect(onDisk).toEqual(m)
  })

  it('refuses files outside the folder and claims that contradict the files', async () => {
    await expect(writeManifest(dir, ['../elsewhere.txt'])).rejects.toThrow(/not inside/)
    await expect(writeManifest(dir, ['runs.jsonl'], { rowCounts: { 'runs.jsonl': 4 } })).rejects.toThrow(
      /row count for runs\.jsonl given as 4 but the file holds 3 rows/,
    )
    await expect(writeManifest(dir, ['runs.jsonl'], { configIds: ['cfg-a'] })).rejects.toThrow(/configIds given/)
    // agreeing claims are fine
    await writeManifest(dir, ['runs.jsonl'], { rowCounts: { 'runs.jsonl': 3 }, configIds: ['cfg-b', 'cfg-a'] })
  })
})

describe('verifyDir', () => {
  beforeEach(async () => {
    await writeManifest(dir, ['runs.jsonl', 'report.json', 'report.md'])
  })

  it('passes on an untouched folder', async () => {
    expect(await verifyDir(dir)).toEqual({ ok: true, problems: [], files: 3 })
  })

  it('catches a flipped byte', async () => {
    // flip a bit inside the digits of "f1":0.75 → still valid JSON, different bytes
    await flipByte(join(dir, 'runs.jsonl'), (b) => b.indexOf('0.75') + 3)
    const r = await verifyDir(dir)
    expect(r.ok).toBe(false)
    expect(r.problems).toHaveLength(2)
    expect(r.problems[0]).toMatch(/^runs\.jsonl: sha256 [0-9a-f]{64}, manifest says [0-9a-f]{64}$/)
    expect(r.problems[1]).toBe('report.json: records differ from the rows of runs.jsonl')
  })

  it('catches a flipped byte in a file that holds no rows', async () => {
    await flipByte(join(dir, 'report.md'), () => 2)
    const r = await verifyDir(dir)
    expect(r.problems).toEqual([expect.stringMatching(/^report\.md: sha256 /)])
  })

  it('catches a dropped row, a missing file and a tampered manifest', async () => {
    await writeFile(join(dir, 'runs.jsonl'), runsText.split('\n').slice(0, 2).join('\n') + '\n')
    await rm(join(dir, 'report.md'))
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))
    manifest.configIds = ['cfg-a', 'cfg-b', 'cfg-ghost']
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest))
    const { problems } = await verifyDir(dir)
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^runs\.jsonl: size \d+ bytes, manifest says \d+$/),
        'runs.jsonl: 2 rows, manifest says 3',
        'report.md: listed in the manifest but missing',
        'report.json: 3 records but runs.jsonl has 2 rows',
        'manifest.json: configIds list 1 not found in the runs (first cfg-ghost)',
      ]),
    )
  })

  it('reports a missing or broken manifest and rejects a non-folder', async () => {
    await writeFile(join(dir, 'manifest.json'), '{"manifestVersion": 1}')
    expect((await verifyDir(dir)).problems[0]).toMatch(/^manifest\.json: field "tool"/)
    await rm(join(dir, 'manifest.json'))
    expect((await verifyDir(dir)).problems).toEqual([`manifest.json: missing from ${dir}`])
    await expect(verifyDir(join(dir, 'runs.jsonl'))).rejects.toThrow(/not a folder/)
  })

  it('addToManifest keeps earlier entries and re-derives them', async () => {
    const m = await addToManifest(dir, new Map([[join(dir, 'extra.bin'), new Uint8Array([1, 2, 3])]]), {
      rowCounts: { 'extra.bin': 7 },
    })
    expect(m.files.map((f) => f.path)).toEqual(['extra.bin', 'report.json', 'report.md', 'runs.jsonl'])
    expect(m.rowCounts).toEqual({ 'extra.bin': 7, 'report.json': 3, 'runs.jsonl': 3 })
    expect((await verifyDir(dir)).ok).toBe(true)
  })
})

describe('verify command', () => {
  it('exits 0 when everything matches, 1 on a mismatch, 2 on a bad folder', async () => {
    await writeManifest(dir, ['runs.jsonl', 'report.json', 'report.md'])
    const ok = capture(dir)
    expect(await main(['verify', '.'], ok)).toBe(0)
    expect(ok.out).toBe('verified .: 3 files match manifest.json\n')

    await flipByte(join(dir, 'report.json'), (b) => b.indexOf('"caseId"') + 2)
    const bad = capture(dir)
    expect(await main(['verify', dir], bad)).toBe(1)
    expect(bad.err).toContain('dataforge-evals verify: report.json: sha256')
    const lines = bad.err.trim().split('\n')
    const n = lines.length - 1
    expect(lines.at(-1)).toBe(`dataforge-evals verify: ${dir}: ${n} ${n === 1 ? 'problem' : 'problems'}`)

    const missing = capture(dir)
    expect(await main(['verify', 'no-such-dir'], missing)).toBe(2)
    expect(missing.err).toMatch(/^dataforge-evals: .*no-such-dir: not a folder\n$/)
  })
})

describe('a manifest built from what the writer holds', () => {
  it('counts the rows it is given as it would count them parsed back, and takes rows only with their contents', async () => {
    const contents = new Map([
      [join(dir, 'runs.jsonl'), runsText],
      [join(dir, 'report.json'), reportText],
    ])
    const parsed = await buildManifest(dir, [...contents.keys()], { contents })
    const given = await buildManifest(dir, [...contents.keys()], {
      contents,
      rows: new Map([
        [join(dir, 'runs.jsonl'), records],
        [join(dir, 'report.json'), records],
      ]),
    })
    expect(given).toEqual(parsed)
    expect(given.rowCounts).toEqual({ 'report.json': 3, 'runs.jsonl': 3 })
    expect(given.configIds).toEqual(['cfg-a', 'cfg-b'])
    await expect(buildManifest(dir, ['runs.jsonl'], { rows: new Map([['runs.jsonl', records]]) })).rejects.toThrow(
      /rows given for runs\.jsonl, whose contents are not given/,
    )
  })
})
