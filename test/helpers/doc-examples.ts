import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { repoRoot } from './vitest-run.js'

/** The code block of `lang` in a page of this repository (README.md, docs/…) that contains `marker`, as a user copies it. */
export async function docExample(page: string, lang: string, marker: string): Promise<string> {
  const text = await readFile(join(repoRoot, page), 'utf8')
  const blocks = [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!)
  const block = blocks.find((b) => b.includes(marker))
  if (!block) throw new Error(`${page} has no ${lang} block with ${marker}`)
  return block
}
