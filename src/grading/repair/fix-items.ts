import { truncate } from '../../core/text.js'

/** A fix item whose shape is valid; whether its cell exists is decided later. */
interface FixItem {
  row: number
  column: string
  newValue: string
}

/**
 * The list of proposed fixes inside whatever an agent returned: the output itself when it is an array, else
 * its `fixes` array. Anything else is not a repair answer at all, and the runner records an
 * `invalid_output` failure from the `TypeError`.
 */
export function fixItemsOf(output: unknown): readonly unknown[] {
  if (Array.isArray(output)) return output
  if (output !== null && typeof output === 'object') {
    const fixes = (output as { fixes?: unknown }).fixes
    if (Array.isArray(fixes)) return fixes
    throw new TypeError(
      `repair output must be an array of fixes or an object with a "fixes" array; got an object with ${
        fixes === undefined ? 'no "fixes" key' : `"fixes" of type ${kindOf(fixes)}`
      }`,
    )
  }
  throw new TypeError(
    `repair output must be an array of fixes or an object with a "fixes" array; got ${kindOf(output)}`,
  )
}

/**
 * Checks one item's shape strictly: `row` a safe integer, `column` and `newValue` strings. A numeric
 * `newValue` is malformed, not converted: CSV cells are strings and the grader does not guess a formatting.
 * Returns the fix, or a short description of what is wrong, naming the item's index.
 */
export function checkFixItem(item: unknown, index: number): FixItem | string {
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    return `fix #${index}: not an object (${kindOf(item)})`
  const { row, column, newValue } = item as Record<string, unknown>
  // A well-formed item (the common case) passes before any message is built.
  if (
    typeof row === 'number' &&
    Number.isSafeInteger(row) &&
    typeof column === 'string' &&
    typeof newValue === 'string'
  )
    return { row, column, newValue }
  const at = `fix #${index}`
  const missing = (['row', 'column', 'newValue'] as const).filter(
    (key) => !(key in item) || (item as Record<string, unknown>)[key] === undefined,
  )
  if (missing.length > 0) return `${at}: missing ${missing.map((k) => `"${k}"`).join(', ')}`
  if (typeof row !== 'number' || !Number.isSafeInteger(row))
    return `${at}: "row" must be an integer, got ${preview(row)}`
  if (typeof column !== 'string') return `${at}: "column" must be a string, got ${preview(column)}`
  if (typeof newValue !== 'string') return `${at}: "newValue" must be a string, got ${preview(newValue)}`
  return { row, column, newValue }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function preview(value: unknown): string {
  if (typeof value === 'string') return `a string ${JSON.stringify(truncate(value, 31))}`
  if (typeof value === 'number') return `the number ${value}`
  return kindOf(value)
}
