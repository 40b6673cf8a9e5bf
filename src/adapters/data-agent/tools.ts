import { z } from 'zod'
import type { ChatTool } from '../providers/chat-types.js'

export const TOOL_NAMES = ['list_tables', 'describe', 'sql', 'save', 'chart', 'answer'] as const
export type ToolName = (typeof TOOL_NAMES)[number]

/** What each tool accepts; a call that does not match is returned to the model as a malformed call. */
export const TOOL_ARGS = {
  list_tables: z.object({ include_saved: z.boolean().optional() }),
  describe: z.object({ table: z.string().min(1) }),
  sql: z.object({ query: z.string().min(1) }),
  save: z.object({ name: z.string().min(1), query: z.string().min(1) }),
  chart: z.object({
    spec: z.union([z.string().min(1), z.record(z.string(), z.unknown())]),
    query: z.string().min(1).optional(),
  }),
  answer: z.object({
    value: z.unknown().optional(),
    text: z.string().optional(),
    refused: z.boolean().optional(),
    result: z.string().min(1).optional(),
  }),
} satisfies Record<ToolName, z.ZodType>

export type ToolArgs<N extends ToolName> = z.infer<(typeof TOOL_ARGS)[N]>

function tool(name: ToolName, description: string, properties: Record<string, unknown>, required: string[]): ChatTool {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties, required } } }
}

/**
 * The tool list sent with every model call (fixed order, so recorded calls replay byte for byte). Every property
 * has a scalar type and no object is left without properties, since some providers (Gemini's OpenAI-compatible
 * endpoint) reject untyped or empty object schemas: structured arguments travel as JSON text, and the tools also
 * accept them as JSON values from models that send those.
 */
export function toolDefinitions(opts: { maxRows: number; sampleRows: number }): ChatTool[] {
  return [
    tool(
      'list_tables',
      'List the tables and saved results with their row and column counts.',
      { include_saved: { type: 'boolean', description: 'also list saved results (default true)' } },
      [],
    ),
    tool(
      'describe',
      `Columns with their types, the row count and the first ${opts.sampleRows} rows of a table or saved result. ` +
        'These sample rows are all you see of the data: compute answers with sql, never from the sample.',
      { table: { type: 'string', description: 'table or saved result name' } },
      ['table'],
    ),
    tool(
      'sql',
      `Run one read-only DuckDB SELECT over the tables and saved results. At most ${opts.maxRows} rows come back; ` +
        'a note says when the result was truncated and how many rows it has.',
      { query: { type: 'string', description: 'a single SELECT statement (DuckDB SQL)' } },
      ['query'],
    ),
    tool(
      'save',
      'Store the result of a SELECT under a name; later questions in this conversation can query it like a table.',
      {
        name: { type: 'string', description: 'identifier: letters, digits, underscore' },
        query: { type: 'string', description: 'a single SELECT statement' },
      },
      ['name', 'query'],
    ),
    tool(
      'chart',
      'Validate a Vega-Lite spec against the data and attach it to the answer. Give the data as `query` (a SELECT ' +
        'whose rows feed the chart), as spec.data.name (a table or saved result) or as spec.data.values.',
      {
        spec: {
          type: 'string',
          description: 'the Vega-Lite spec as JSON text: mark, encoding with field names from the data',
        },
        query: { type: 'string', description: 'optional SELECT whose rows become the chart data' },
      },
      ['spec'],
    ),
    tool(
      'answer',
      'Give the final answer and end the turn. `value` is the structured result (number, string, boolean, list, or ' +
        '{columns, rows}); `text` a short explanation. Set refused to true when the data cannot answer the question. ' +
        '`result` names a saved result to return as a table instead of value.',
      {
        value: {
          type: 'string',
          description:
            'the answer as JSON text: a number (42.5), a quoted string ("Cara"), a list (["a", "b"]) or a table ({"columns": [...], "rows": [[...]]}); plain text is taken as a string',
        },
        text: { type: 'string', description: 'one or two sentences' },
        refused: { type: 'boolean', description: 'true when the data cannot answer the question' },
        result: { type: 'string', description: 'optional: a saved result to answer with, as a table' },
      },
      ['text'],
    ),
  ]
}

/** A zod failure as one line naming the argument. */
export function argsProblem(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'arguments'}: ${issue.message}`)
    .join('; ')
}
