import { InputError } from '../../core/errors.js'
import type { AgentTask } from '../../core/schemas.js'
import type { ChatMessage } from './chat-types.js'

export const DEFAULT_CHUNK_TOKEN_BUDGET = 4_000

/**
 * A rough token count: one token per 3 characters. Tokenizers give about 4 for English prose but fewer
 * for JSON full of quotes, digits and short values, so 3 keeps chunks under the budget.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3)
}

export interface RepairChunk {
  /** First row (0-based, inclusive) in this chunk. */
  startRow: number
  /** One past the last row. */
  endRow: number
  messages: ChatMessage[]
  estimatedTokens: number
}

export interface RepairPrompt {
  chunks: RepairChunk[]
  warnings: string[]
}

export interface RepairPromptOptions {
  /** Estimated prompt tokens per call; tables that do not fit are split into row chunks. */
  chunkTokenBudget?: number
}

const SYSTEM =
  'You are a data-cleaning assistant. You find erroneous cells in a table and propose corrected values. ' +
  'You answer with strict JSON only: no prose, no code fences.'

/**
 * The repair prompt: the dirty table as JSON records, one per line, each carrying its row number, plus the
 * allowed column names and the exact answer shape. Rows are split into chunks that fit the token budget.
 */
export function buildRepairPrompt(task: AgentTask, opts: RepairPromptOptions = {}): RepairPrompt {
  const budget = opts.chunkTokenBudget ?? DEFAULT_CHUNK_TOKEN_BUDGET
  if (!Number.isFinite(budget) || budget <= 0) {
    throw new InputError(`chunkTokenBudget: expected a positive number of tokens, got ${budget}`)
  }
  const rowKey = rowKeyFor(task.columns)
  const total = task.dirty.rows.length
  const lines = task.dirty.rows.map((row, index) => recordLine(task.columns, row, index, rowKey))
  const fixed = estimateTokens(SYSTEM) + estimateTokens(instructions(task, rowKey, 0, total, total))
  if (fixed >= budget) {
    throw new InputError(
      `chunkTokenBudget: ${budget} tokens is less than the prompt's fixed part (about ${fixed} tokens)`,
    )
  }
  const warnings: string[] = []
  const ranges: Array<[number, number]> = []
  let start = 0
  let used = fixed
  for (let i = 0; i < total; i++) {
    const cost = estimateTokens(lines[i]!) + 1
    if (i > start && used + cost > budget) {
      ranges.push([start, i])
      start = i
      used = fixed
    }
    if (i === start && fixed + cost > budget) {
      warnings.push(
        `row ${i} alone is about ${fixed + cost} tokens, over the ${budget}-token chunk budget; sent on its own`,
      )
    }
    used += cost
  }
  if (total > 0) ranges.push([start, total])
  const chunks = ranges.map(([from, to]) => {
    const user = `${instructions(task, rowKey, from, to, total)}\n${lines.slice(from, to).join('\n')}`
    return {
      startRow: from,
      endRow: to,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: user },
      ] satisfies ChatMessage[],
      estimatedTokens: estimateTokens(SYSTEM) + estimateTokens(user),
    }
  })
  return { chunks, warnings }
}

function instructions(task: AgentTask, rowKey: string, from: number, to: number, total: number): string {
  const range =
    total === 0
      ? 'The table has no rows.'
      : `Rows ${from} to ${to - 1} of ${total} (0-based), one JSON record per line:`
  const idColumns = Array.isArray(task.metadata['idColumns']) ? task.metadata['idColumns'] : []
  return [
    `Table "${task.name}". Allowed columns: ${JSON.stringify(task.columns)}.`,
    ...(idColumns.length > 0 ? [`Id columns ${JSON.stringify(idColumns)} hold no errors: never change them.`] : []),
    'Find cells whose value is wrong (typos, wrong formats, placeholder nulls, values inconsistent with the rest of the table) and give the corrected value.',
    `Answer with exactly this JSON shape: {"fixes":[{"row":<row number from "${rowKey}">,"column":"<allowed column>","new_value":"<corrected value as a string>"}]}`,
    'List only cells you change. If nothing needs repair, answer {"fixes":[]}.',
    range,
  ].join('\n')
}

/** The record key for the row number: `row`, unless the table has a column of that name. */
function rowKeyFor(columns: readonly string[]): string {
  let key = 'row'
  while (columns.includes(key)) key = `_${key}`
  return key
}

/** Built by hand so column order is kept and odd names (`__proto__`, `0`) stay plain keys. */
function recordLine(columns: readonly string[], row: readonly string[], index: number, rowKey: string): string {
  const parts = [`${JSON.stringify(rowKey)}:${index}`]
  columns.forEach((column, j) => {
    parts.push(`${JSON.stringify(column)}:${JSON.stringify(row[j] ?? '')}`)
  })
  return `{${parts.join(',')}}`
}
