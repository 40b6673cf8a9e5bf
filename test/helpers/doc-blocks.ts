import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from './dataset-paths.js'

// The marker convention of docs/development.md: an HTML comment on the line right before a code fence says
// what the block is. GitHub renders the comment as nothing.
//   <!-- runnable: vitest -->     a file of the consumer project (an eval, vitest.config.ts), run by `vitest run`
//   <!-- runnable: sh -->         shell commands, run in the consumer project
//   <!-- runnable: typecheck -->  TypeScript that needs a key or a provider: only type-checked
//   <!-- runnable: recipe -->     a file of docs/frameworks.md's project, run by test/docs/frameworks.test.ts with the
//                                 frameworks installed, against a loopback model
//   <!-- not runnable: why -->    a deliberate exception (an install from the registry, this repository's own commands)

export const RUNNABLE_KINDS = ['vitest', 'sh', 'typecheck', 'recipe'] as const
export type RunnableKind = (typeof RUNNABLE_KINDS)[number]

export interface DocBlock {
  /** The page, relative to the repository (`README.md`, `docs/evals.md`). */
  page: string
  /** 1-based line of the opening fence. */
  line: number
  /** The fence's info string (`ts`, `sh`, empty). */
  lang: string
  /** The marker's kind, `not runnable`, or null for an unmarked block. */
  kind: RunnableKind | 'not runnable' | null
  code: string
}

const MARKER = /^<!-- (runnable: ?(\S+)|not runnable: ?.+?) -->$/

/**
 * Every fenced code block of a Markdown page (by default read from the repository), with the marker right before
 * it. Throws on a marker that is not right before a fence, on an unknown kind and on a fence that never closes.
 */
export function docBlocks(page: string, text = readFileSync(join(repoRoot, page), 'utf8')): DocBlock[] {
  const lines = text.split('\n')
  const blocks: DocBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const marker = MARKER.exec(line.trim())
    if (marker) {
      const next = lines[i + 1] ?? ''
      if (!next.startsWith('```'))
        throw new Error(`${page}:${i + 1}: the marker "${line.trim()}" is not right before a code fence`)
      const kind = marker[2]
      if (kind !== undefined && !(RUNNABLE_KINDS as readonly string[]).includes(kind)) {
        throw new Error(`${page}:${i + 1}: unknown runnable kind "${kind}" (known: ${RUNNABLE_KINDS.join(', ')})`)
      }
      continue
    }
    if (!line.startsWith('```')) continue
    const start = i
    const body: string[] = []
    for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!)
    if (i === lines.length) throw new Error(`${page}:${start + 1}: a code fence that never closes`)
    const before = MARKER.exec((lines[start - 1] ?? '').trim())
    const kind = before ? ((before[2] as RunnableKind | undefined) ?? 'not runnable') : null
    blocks.push({ page, line: start + 1, lang: line.slice(3).trim(), kind, code: `${body.join('\n')}\n` })
  }
  return blocks
}

/** `page:line`, how a block is named in test names and errors. */
export function blockName(block: DocBlock): string {
  return `${block.page}:${block.line}`
}

/** The path a file block names at the start of its first line (`// evals/repair.eval.ts`), or undefined. */
export function namedPath(block: DocBlock): string | undefined {
  return /^\/\/ ([\w./-]+\.[cm]?[jt]s)(\s|$)/.exec(block.code.split('\n')[0]!)?.[1]
}
