import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/dataset-paths.js'

const page = readFileSync(resolve(repoRoot, 'docs/architecture.md'), 'utf8')
const exists = (path: string) => existsSync(resolve(repoRoot, path))

/** The code spans of a Markdown text: `like/this.ts`. */
const spans = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)

describe('docs/architecture.md names only what exists', () => {
  it('every src/, test/ and bench/ path it names', () => {
    const named = [...new Set([...page.matchAll(/\b((?:src|test|bench)\/[\w./-]*[\w/])/g)].map((m) => m[1]!))]
    expect(named.length).toBeGreaterThan(20)
    expect(named.filter((path) => !exists(path))).toEqual([])
  })

  it('every file and folder the folder table and the paragraphs name inside a folder (`repair/`, `cap.ts`)', () => {
    const missing: string[] = []
    let checked = 0
    // The folder table: each row's bare names live in that row's folder (or a folder below it).
    for (const row of page.matchAll(/^\| `((?:src|test)\/[\w-]+\/)`(?:, `(src\/[\w-]+\/)`)? \| (.+) \|$/gm)) {
      const folders = [row[1]!, ...(row[2] ? [row[2]] : [])]
      for (const name of spans(row[3]!).filter((s) => /^[\w-]+(?:\/[\w.-]+)*(?:\.(?:ts|sh)|\/)$/.test(s))) {
        checked++
        if (!folders.some((folder) => exists(`${folder}${name}`))) missing.push(`${folders.join(', ')}: ${name}`)
      }
    }
    // Elsewhere a bare `folder/file.ts` is under src/ (`report-builder/run-end.ts`), a bare `file.ts` somewhere below it.
    for (const name of spans(page.replace(/^\|.*\|$/gm, '')).filter(
      (s) => /^[\w-]+(?:\/[\w.-]+)+\.ts$/.test(s) && !/^(src|test|bench)\//.test(s),
    )) {
      checked++
      if (!exists(`src/${name}`)) missing.push(name)
    }
    expect(checked).toBeGreaterThan(30)
    expect(missing).toEqual([])
  })
})
