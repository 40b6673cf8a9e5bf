/**
 * The sentences of a Markdown page, for the docs' sentence-length rule (docs/development.md, "Docs style").
 *
 * Prose only: fenced code blocks, HTML comments, tables and headings are left out. A paragraph, a list item and a
 * blockquote line are each their own text (a list item's indented lines continue it); an item ends its last
 * sentence even without a full stop. Inside a text, a sentence ends at `.`, `!` or `?` followed by a space (or at
 * the end), except after the abbreviations "e.g.", "i.e.", "cf." and "vs.". An inline code span and a link count
 * as their text, so a dot inside `a.b` or a URL ends nothing. Words are the tokens with a letter or a digit.
 */

const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|cf|vs)\.$/i
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/
const FENCE = /^\s*(```|~~~)/

/** Each prose text of the page: a paragraph, a list item or a quoted paragraph, joined into one line. */
export function proseTexts(markdown: string): string[] {
  const texts: string[] = []
  let current: string[] = []
  const flush = () => {
    if (current.length) texts.push(current.join(' '))
    current = []
  }
  let fence: string | null = null
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n')
  for (const line of lines) {
    const open = FENCE.exec(line)
    if (fence) {
      if (open && open[1] === fence) fence = null
      continue
    }
    if (open) {
      flush()
      fence = open[1]!
      continue
    }
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('|')) {
      flush()
      continue
    }
    if (LIST_ITEM.test(line)) {
      flush()
      current.push(line.replace(LIST_ITEM, ''))
      continue
    }
    current.push(trimmed.replace(/^(?:>\s*)+/, ''))
  }
  flush()
  return texts
}

/** The text a reader reads: code spans and links as their text. */
function plain(text: string): string {
  return text
    .replace(/`+([^`]*)`+/g, (_, code: string) => code.replace(/[.!?]/g, '·'))
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
}

/** The sentences of one prose text. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  const source = plain(text)
  for (const m of source.matchAll(/[.!?]+["')\]*_]*(?=\s|$)/g)) {
    const end = m.index + m[0].length
    if (ABBREVIATIONS.test(source.slice(start, end))) continue
    sentences.push(source.slice(start, end).trim())
    start = end
  }
  const rest = source.slice(start).trim()
  if (rest) sentences.push(rest)
  return sentences.filter((s) => wordCount(s) > 0)
}

export function wordCount(sentence: string): number {
  return sentence.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length
}

/** Every sentence of a Markdown page. */
export function sentences(markdown: string): string[] {
  return proseTexts(markdown).flatMap(sentencesOf)
}
