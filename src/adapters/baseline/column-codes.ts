/** One column dictionary-encoded: `codes[row]` indexes `values`; `counts[code]` is how often it occurs. */
export interface ColumnCodes {
  codes: Int32Array
  values: string[]
  counts: number[]
  /** Codes of null-like values (`''`, `N/A`, `null`, …): never votes, always fillable. */
  isNull: boolean[]
}

/** Placeholders that stand for "no value" in exported tables, compared case-insensitively. */
const NULL_TOKENS: ReadonlySet<string> = new Set([
  '',
  'n/a',
  'n.a.',
  'na',
  'null',
  'none',
  'nan',
  'not available',
  '-',
  '--',
  '?',
])

function isNullLike(value: string): boolean {
  return NULL_TOKENS.has(value.trim().toLowerCase())
}

export function encodeColumn(cells: readonly string[]): ColumnCodes {
  const index = new Map<string, number>()
  const values: string[] = []
  const counts: number[] = []
  const codes = new Int32Array(cells.length)
  for (let r = 0; r < cells.length; r++) {
    const value = cells[r]!
    let code = index.get(value)
    if (code === undefined) {
      code = values.length
      index.set(value, code)
      values.push(value)
      counts.push(0)
    }
    counts[code]!++
    codes[r] = code
  }
  return { codes, values, counts, isNull: values.map(isNullLike) }
}
