import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import { isPlainObject } from '../../core/is-plain-object.js'
import type { Table } from '../../core/schemas.js'
import { truncate } from '../../core/text.js'
import type { Trajectory } from '../../grading/trajectory.js'
import { DataEngine, type EngineOptions } from './engine.js'

/*
 * The snapshot trap: the data agent's model sees a few sample rows of each table (`describe`) and must compute its
 * answer with SQL over the whole table. This check decides whether it did, exactly, by running the agent's own SQL
 * again: once over the full tables and once over the sample rows alone. The answer was computed over the full
 * table when one of its queries returns the answer's value over the full tables and not over the sample rows.
 */

export interface SnapshotTrapOptions {
  /** The tables the agent was given. */
  tables: Record<string, Table>
  /** Rows `describe` showed of each table (the data agent's `sampleRows`). Default 5. */
  sampleRows?: number
  engine?: EngineOptions
}

/** Rows of each re-run result searched for the answer's value. */
const MAX_ROWS = 10_000

interface Statement {
  kind: 'sql' | 'save'
  query: string
  name?: string
}

/** The SQL of a tool call as the record keeps it: JSON arguments `{ query, name? }` (the model's), or the SQL itself (the agent's). */
function statementOf(call: { name: string; arguments: string }): Statement | null {
  if (call.name !== 'sql' && call.name !== 'save') return null
  let args: unknown
  try {
    args = JSON.parse(call.arguments)
  } catch {
    args = undefined
  }
  if (isPlainObject(args)) {
    const query = (args as Record<string, unknown>)['query']
    const name = (args as Record<string, unknown>)['name']
    if (typeof query !== 'string') return null
    return call.name === 'save'
      ? typeof name === 'string'
        ? { kind: 'save', query, name }
        : null
      : { kind: 'sql', query }
  }
  return call.name === 'sql' && call.arguments.trim() !== '' ? { kind: 'sql', query: call.arguments } : null
}

/** Decimal places of a number as written (`51.2` → 1); null for an exponent form, matched by relative error. */
function decimalsOf(value: number): number | null {
  const text = String(value)
  if (/e/i.test(text)) return null
  const dot = text.indexOf('.')
  return dot < 0 ? 0 : text.length - dot - 1
}

function numberOf(cell: unknown): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null
  if (typeof cell === 'bigint') return Number(cell)
  if (typeof cell === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(cell)) return Number(cell)
  return null
}

/**
 * Whether a cell holds the answer's value: a number equal to it once rounded to the answer's decimal places (the
 * answer `51.2` matches a cell `51.2371`), a string equal to it after trimming, a boolean equal to it.
 */
function cellMatcher(value: unknown): ((cell: unknown) => boolean) | null {
  const asNumber = numberOf(value)
  if (asNumber !== null) {
    const decimals = decimalsOf(asNumber)
    return (cell) => {
      const n = numberOf(cell)
      if (n === null) return false
      if (decimals === null || decimals > 12) return Math.abs(n - asNumber) <= 1e-9 * Math.max(1, Math.abs(asNumber))
      return Math.abs(Number(n.toFixed(decimals)) - asNumber) <= 1e-9 * Math.max(1, Math.abs(asNumber))
    }
  }
  if (typeof value === 'string' && value.trim() !== '')
    return (cell) => cell !== null && cell !== undefined && String(cell).trim() === value.trim()
  if (typeof value === 'boolean') return (cell) => cell === value
  return null
}

/** The answer's scalar: `value`, or a one-cell table's cell. */
function scalarOf(answer: unknown): unknown {
  if (!isPlainObject(answer)) return answer
  const value = (answer as Answer).value
  if (isPlainObject(value)) {
    const rows = (value as Table).rows
    return Array.isArray(rows) && rows.length === 1 && rows[0]?.length === 1 ? rows[0][0] : undefined
  }
  return value
}

function sampleOf(tables: Record<string, Table>, rows: number): Record<string, Table> {
  return Object.fromEntries(
    Object.entries(tables).map(([name, t]) => [name, { columns: t.columns, rows: t.rows.slice(0, rows) }]),
  )
}

interface Rerun {
  query: string
  full: boolean
  sample: boolean
}

/** Runs the statements in order on one engine; for each `sql`, whether its result holds the value (null: it failed). */
async function rerun(
  engine: DataEngine,
  statements: readonly Statement[],
  holds: (cell: unknown) => boolean,
): Promise<Array<boolean | null>> {
  const out: Array<boolean | null> = []
  try {
    for (const s of statements) {
      try {
        if (s.kind === 'save') {
          await engine.save(s.name!, s.query)
          continue
        }
        const result = await engine.query(s.query, MAX_ROWS)
        out.push(result.rows.some((row) => row.some(holds)))
      } catch {
        if (s.kind === 'sql') out.push(null)
      }
    }
  } finally {
    engine.close()
    await engine.whenClosed()
  }
  return out
}

const shown = (query: string) => `\`${truncate(query.replace(/\s+/g, ' ').trim(), 160)}\``

/**
 * Grades the snapshot trap: passes when one of the trajectory's `sql` calls, run again, returns the answer's value
 * over the full tables and not over their first `sampleRows` rows. `save` calls are replayed in order first.
 */
export async function checkSnapshotTrap(
  answer: unknown,
  trajectory: Pick<Trajectory, 'toolCalls'>,
  opts: SnapshotTrapOptions,
): Promise<GradeResult> {
  if (!opts || !isPlainObject(opts.tables) || Object.keys(opts.tables).length === 0) {
    throw new InputError('toAvoidSnapshotTrap: give the tables the agent saw, { tables: { name: { columns, rows } } }')
  }
  const sampleRows = opts.sampleRows ?? 5
  if (!Number.isInteger(sampleRows) || sampleRows < 0)
    throw new InputError(`toAvoidSnapshotTrap: sampleRows must be a non-negative integer, got ${String(sampleRows)}`)
  const value = scalarOf(answer)
  const holds = cellMatcher(value)
  if (!holds)
    return {
      passed: false,
      detail: `the answer has no single value to trace (${truncate(JSON.stringify(value) ?? 'undefined', 80)})`,
      score: 0,
    }
  const statements = trajectory.toolCalls.map(statementOf).filter((s): s is Statement => s !== null)
  const queries = statements.filter((s) => s.kind === 'sql')
  const said = `the answer ${truncate(JSON.stringify(value), 80)}`
  if (queries.length === 0)
    return { passed: false, detail: `${said} comes from no sql call: nothing was computed over the table`, score: 0 }
  const [full, sample] = await Promise.all([
    DataEngine.open(opts.tables, opts.engine).then((e) => rerun(e, statements, holds)),
    DataEngine.open(sampleOf(opts.tables, sampleRows), opts.engine).then((e) => rerun(e, statements, holds)),
  ])
  const runs: Rerun[] = queries.map((q, i) => ({ query: q.query, full: full[i] === true, sample: sample[i] === true }))
  const computed = runs.find((r) => r.full && !r.sample)
  if (computed) {
    return {
      passed: true,
      detail: `${said} is in the result of ${shown(computed.query)} over the full table, and not over its ${sampleRows} sample rows`,
      score: 1,
    }
  }
  const both = runs.find((r) => r.full && r.sample)
  if (both) {
    return {
      passed: false,
      detail: `${said} is in the result of ${shown(both.query)} over the sample rows alone too: that query does not depend on the rows the agent did not see`,
      score: 0,
    }
  }
  return {
    passed: false,
    detail: `${said} is in no sql result over the full table (${queries.length} queries run again): it was not computed there`,
    score: 0,
  }
}
