import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVitest, type Vitest } from 'vitest/node'
import { repoRoot } from '../helpers/dataset-paths.js'
import { E2E_TESTS } from '../projects.js'

// The split of test/projects.ts, as Vitest itself resolves vitest.config.ts: every test file runs in exactly one
// of the unit and e2e projects, every e2e entry names a file, and no unit file reaches a helper that starts a
// process (the unit project's setup file, test/helpers/unit-guard.ts, stops one that starts it some other way).

/** Modules and test helpers that start processes, browsers or Vitest runs: e2e only. */
const STARTERS = [
  'node:child_process',
  'child_process',
  'playwright-core',
  'test/helpers/cli-child.ts',
  'test/helpers/packed-project.ts',
  'test/helpers/jest-project.ts',
  'test/helpers/vitest-run.ts',
  'test/isolation/wall-project.ts',
  'test/report-builder/html/browser.ts',
]

const IMPORT =
  /^\s*(?:import|export)\s[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm

/** The starters `file` reaches through the test folder's own imports, each with its chain of files. */
function startersReached(file: string): string[] {
  const found: string[] = []
  const seen = new Set<string>()
  const visit = (path: string, chain: string[]) => {
    const name = relative(repoRoot, path)
    if (seen.has(name)) return
    seen.add(name)
    const here = [...chain, name]
    if (STARTERS.includes(name)) found.push(here.join(' → '))
    // Comments may show an import as an example (`import('./x.js')`): only code is read.
    const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')
    for (const m of code.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2] ?? m[3])!
      if (STARTERS.includes(spec)) found.push([...here, spec].join(' → '))
      // the test folder's helpers; src/ starts processes only where a unit test's guard would stop it
      const target = spec.startsWith('.') ? resolve(dirname(path), spec.replace(/\.js$/, '.ts')) : null
      if (target && relative(repoRoot, target).startsWith('test/')) visit(target, here)
    }
  }
  visit(file, [])
  return found
}

describe('the unit and e2e projects (test/projects.ts)', () => {
  let vitest: Vitest
  const projectsOf = new Map<string, string[]>()

  beforeAll(async () => {
    vitest = await createVitest('test', { root: repoRoot, watch: false, reporters: [] })
    for (const spec of await vitest.globTestSpecifications()) {
      const file = relative(repoRoot, spec.moduleId)
      projectsOf.set(file, [...(projectsOf.get(file) ?? []), spec.project.name])
    }
  })
  afterAll(() => vitest?.close())

  const testFiles = readdirSync(join(repoRoot, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/${f}`)
    .sort()

  it('puts every test file in exactly one of them', () => {
    expect(testFiles.length).toBeGreaterThan(100)
    const misplaced = testFiles
      .map((file) => ({ file, projects: (projectsOf.get(file) ?? []).filter((p) => p !== 'evals') }))
      .filter(({ projects }) => projects.length !== 1)
    expect(misplaced).toEqual([])
  })

  it('runs only eval files in the evals project', () => {
    const evals = [...projectsOf].filter(([, projects]) => projects.includes('evals')).map(([file]) => file)
    expect(evals.length).toBeGreaterThan(0)
    for (const file of evals) expect(file).toMatch(/^evals\/.*\.eval\.ts$/)
  })

  it('names no e2e entry that matches no file', () => {
    const e2e = [...projectsOf].filter(([, projects]) => projects.includes('e2e')).map(([file]) => file)
    for (const pattern of E2E_TESTS) {
      const matcher = new RegExp(
        `^${pattern
          .replace(/\./g, '\\.')
          .replace(/\*\*\//g, '(.*/)?')
          .replace(/\*/g, '[^/]*')}$`,
      )
      expect(
        e2e.some((file) => matcher.test(file)),
        `${pattern} matches no e2e file`,
      ).toBe(true)
    }
  })

  it('keeps unit files away from the helpers that start processes, browsers or Vitest runs', () => {
    const unit = [...projectsOf].filter(([, projects]) => projects.includes('unit')).map(([file]) => file)
    expect(unit.length).toBeGreaterThan(50)
    expect(unit.flatMap((file) => startersReached(join(repoRoot, file)))).toEqual([])
  })
})
