import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { folderSurfaces } from '../helpers/export-graph.js'
import { repoRoot } from '../helpers/dataset-paths.js'

// vitest/index.ts and jest/index.ts are the package's doors (public entries): what reporter/ takes from those
// folders is internal, so it is named here instead of on the doors.
const BEHIND_A_DOOR = [
  'jest/side-file.ts: SIDE_DIR_ENV',
  'jest/side-file.ts: SideLine',
  'jest/side-file.ts: SideLineSchema',
  'jest/side-file.ts: collectSideFiles',
  'vitest/annotate-mode.ts: ANNOTATE_KEY',
  'vitest/annotate-mode.ts: AnnotateMode',
  'vitest/annotate-mode.ts: parseAnnotateMode',
]
const takes = (entry: string) => {
  const [file, name] = entry.split(': ')
  return (line: string) => line.includes(` takes ${name} from src/${file}: `)
}

describe('each folder’s index.ts is its surface', () => {
  // Importers take a name from the file that declares it, so the load graph stays lazy (no barrel is loaded),
  // but the name must be on the folder's index.ts, and an index.ts lists only what is taken.
  const surfaces = folderSurfaces(resolve(repoRoot, 'src'), [resolve(repoRoot, 'test')])

  it('exports every name a file of another folder takes from a file of the folder', () => {
    expect(surfaces.undeclared.filter((line) => !BEHIND_A_DOOR.some((entry) => takes(entry)(line)))).toEqual([])
  })

  it('exports only names another folder, a public entry or a test takes', () => {
    expect(surfaces.untaken).toEqual([])
  })

  it('lists behind the doors only takes that are still there', () => {
    expect(BEHIND_A_DOOR.filter((entry) => !surfaces.undeclared.some(takes(entry)))).toEqual([])
  })
})

describe('folderSurfaces', () => {
  const root = mkdtempSync(join(tmpdir(), 'dataforge-surface-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  write('src/a/index.ts', "/** A. */\nexport { one, type Two } from './x.js'\nexport { nobody } from './y.js'\n")
  write('src/a/x.ts', 'export const one = 1\nexport interface Two {}\nexport const three = 3\nexport const four = 4\n')
  write('src/a/y.ts', "export const nobody = 0\nexport { four as five } from './x.js'\n")
  // The specifiers are joined at run time, so test/build/projects.test.ts does not read them as this file's imports.
  const a = '../a'
  write(
    'src/b/use.ts',
    [
      `import type { Two } from '${a}/x.js'`,
      `import { one } from '${a}/index.js'`,
      'export async function b(t: Two) {',
      `  const x = await import('${a}/x.js')`,
      `  return import('${a}/y.js').then(({ five }) => x.three + one + five)`,
      '}',
    ].join('\n'),
  )
  write(
    'src/c/use.ts',
    [
      'export async function c() {',
      `  const [n, { four }] = await Promise.all([Promise.resolve(1), import('${a}/x.js')])`,
      `  const m = n > 0 ? await import('${a}/x.js') : null`,
      '  if (!m) return four',
      '  return m.one',
      '}',
    ].join('\n'),
  )

  it('reads static, type-only and dynamic takes, and names the importer, the name and the index that lacks it', () => {
    expect(folderSurfaces(join(root, 'src'))).toEqual({
      undeclared: [
        'src/b/use.ts takes five from src/a/y.ts: src/a/index.ts does not export it',
        'src/b/use.ts takes three from src/a/x.ts: src/a/index.ts does not export it',
        'src/c/use.ts takes four from src/a/x.ts: src/a/index.ts does not export it',
      ],
      untaken: ['src/a/index.ts exports nobody (src/a/y.ts), and no other folder, public entry or test takes it'],
    })
  })
})
