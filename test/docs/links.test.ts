import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/dataset-paths.js'

// Every relative link in README.md and docs/ resolves: the file exists, and a `#fragment` names a heading of the
// page it points to (GitHub's anchors). No link leaves the repository: a user's clone has nothing beside it.

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a Markdown page's headings (outside code fences), with GitHub's -1, -2 for repeats. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fence = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence
    const m = fence ? null : /^#{1,6} (.+)$/.exec(line)
    if (!m) continue
    const base = anchorOf(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** Markdown links `[text](target)` outside code fences and inline code. */
function linksOf(text: string): string[] {
  let fence = false
  const links: string[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence
    if (fence) continue
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) links.push(m[1]!)
  }
  return links
}

const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

describe('documentation links', () => {
  it('finds the pages', () => {
    expect(pages.length).toBeGreaterThan(10)
  })

  it.each(pages)('%s: every relative link resolves to a file in the repository and an existing heading', (page) => {
    const file = join(repoRoot, page)
    const text = readFileSync(file, 'utf8')
    const broken: string[] = []
    for (const link of linksOf(text)) {
      if (/^[a-z]+:/i.test(link)) continue
      const [path, fragment] = link.split('#') as [string, string | undefined]
      const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
      if (relative(repoRoot, target).startsWith('..')) {
        broken.push(`${link}: outside the repository`)
        continue
      }
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`)
        continue
      }
      if (
        fragment &&
        statSync(target).isFile() &&
        target.endsWith('.md') &&
        !anchorsOf(readFileSync(target, 'utf8')).has(fragment)
      ) {
        broken.push(`${link}: no heading #${fragment}`)
      }
    }
    expect(broken).toEqual([])
  })
})
