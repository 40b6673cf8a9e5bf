import { checkVegaLite } from '../../grading/answers/vega-lite.js'
import { type DataEngine, ident, type QueryResult, ToolError } from './engine.js'
import { isPlainObject } from '../../core/is-plain-object.js'

/** Rows a chart may carry inline; more means the model should aggregate first. */
export const MAX_CHART_ROWS = 5_000

interface ChartResult {
  /** The spec with its data inlined, as attached to the answer. */
  spec: Record<string, unknown>
  marks: string[]
  channels: string[]
  rows: number
}

/**
 * Resolves a chart's data (a query, a table or saved result named in `data.name`, or inline values), inlines
 * it as `data.values` and checks the spec with the same Vega-Lite validation the chart grader uses, so the
 * fields the encodings name must exist in the data.
 */
export async function buildChart(
  engine: DataEngine,
  spec: Record<string, unknown>,
  query: string | undefined,
): Promise<ChartResult> {
  const data = spec['data']
  const named = isPlainObject(data) && typeof data['name'] === 'string' ? data['name'] : undefined
  let values: unknown
  if (query !== undefined) {
    values = objectsOf(await engine.query(query, MAX_CHART_ROWS), 'the chart query')
  } else if (named !== undefined) {
    engine.relation(named)
    values = objectsOf(await engine.query(`SELECT * FROM ${ident(named)}`, MAX_CHART_ROWS), named)
  } else if (isPlainObject(data) && Array.isArray(data['values'])) {
    values = data['values']
  } else {
    throw new ToolError(
      'chart: give the data as query, as spec.data.name (a table or saved result) or as spec.data.values',
    )
  }
  const resolved: Record<string, unknown> = { ...spec, data: { values } }
  const check = checkVegaLite(resolved)
  if (check.problems.length > 0) throw new ToolError(`chart: invalid Vega-Lite spec: ${check.problems.join('; ')}`)
  return {
    spec: resolved,
    marks: [...check.marks],
    channels: [...check.channels],
    rows: Array.isArray(values) ? values.length : 0,
  }
}

function objectsOf(result: QueryResult, what: string): Array<Record<string, unknown>> {
  if (result.truncated) {
    throw new ToolError(
      `chart: ${what} has ${result.rowCount} rows, over the ${MAX_CHART_ROWS}-row limit for a chart; aggregate first`,
    )
  }
  return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, row[i]])))
}
