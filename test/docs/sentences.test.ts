import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/dataset-paths.js'
import { sentences, sentencesOf, wordCount } from '../helpers/sentences.js'

// Docs sentences stay short (docs/development.md, "Docs style"): on every page, at most 15% of the sentences have
// more than 40 words.
const LONG = 40
const MAX_SHARE = 0.15

const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

describe('docs sentences', () => {
  for (const page of pages) {
    it(`${page}: at most ${MAX_SHARE * 100}% of its sentences have more than ${LONG} words`, () => {
      const all = sentences(readFileSync(join(repoRoot, page), 'utf8'))
      const long = all.filter((s) => wordCount(s) > LONG)
      const shown = long.map((s) => `(${wordCount(s)} words) ${s}`).join('\n\n')
      expect(
        long.length / all.length,
        `${long.length} of ${all.length} sentences are long:\n\n${shown}`,
      ).toBeLessThanOrEqual(MAX_SHARE)
    })
  }
})

describe('the sentence splitter', () => {
  it('reads prose only: no code block, table, heading or HTML comment', () => {
    const page = [
      '# A heading with many words',
      '',
      'One sentence here. Another one!',
      '',
      '```ts',
      'const a = 1. Not prose.',
      '```',
      '',
      '| a | b. c |',
      '| --- | --- |',
      '<!-- runnable: vitest -->',
    ].join('\n')
    expect(sentences(page)).toEqual(['One sentence here.', 'Another one!'])
  })

  it('ends a list item, continued on indented lines, as its own text', () => {
    const page = '- first item\n  goes on\n- second item. Two\n1. numbered'
    expect(sentences(page)).toEqual(['first item goes on', 'second item.', 'Two', 'numbered'])
  })

  it('ends nothing at a dot inside code, a link target, a number or an abbreviation', () => {
    expect(
      sentencesOf('Run `npx vitest run evals/. now` with [the docs](docs/evals.md), e.g. 0.05 vs. 0.1 here.'),
    ).toHaveLength(1)
  })

  it('counts words that have a letter or a digit', () => {
    expect(wordCount('a — b · 3 and ( )')).toBe(4)
  })
})
