import { docBlocks } from './doc-blocks.js'

/** The code block of `lang` in a page of this repository (README.md, docs/…) that contains `marker`, as a user copies it. */
export async function docExample(page: string, lang: string, marker: string): Promise<string> {
  const block = docBlocks(page).find((b) => b.lang === lang && b.code.includes(marker))
  if (!block) throw new Error(`${page} has no ${lang} block with ${marker}`)
  return block.code
}
