import { lexer, type Token, type Tokens } from 'marked'

/** Every table a GitHub-flavoured Markdown parser (marked) finds in the text, nested ones included. */
export function tables(markdown: string): Tokens.Table[] {
  const out: Tokens.Table[] = []
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'table') out.push(t as Tokens.Table)
      if ('tokens' in t && Array.isArray(t.tokens)) walk(t.tokens)
    }
  }
  walk(lexer(markdown))
  return out
}
