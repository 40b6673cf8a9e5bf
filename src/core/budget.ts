import { InputError } from './errors.js'

/**
 * Limits on what a run may spend. The gateway enforces `tokens`, `usd` and `calls` per trial while it runs (the
 * call that would pass one is refused); `toStayWithinBudget` checks all four against a finished run's usage.
 */
export interface Budget {
  /** Prompt + completion tokens, counting cached answers too, so a replay is held to the same budget. */
  tokens?: number
  /** USD actually spent (cached answers cost nothing). */
  usd?: number
  /** Model calls, cached or not. */
  calls?: number
  /** Free-tier quota units actually spent (cached answers cost none). */
  quotaUnits?: number
}

type BudgetField = keyof Budget

export const BUDGET_FIELDS: readonly BudgetField[] = ['tokens', 'usd', 'calls', 'quotaUnits']

/** Counts are whole numbers; money and quota units need not be. */
const WHOLE: ReadonlySet<BudgetField> = new Set(['tokens', 'calls'])

/**
 * A budget as given, checked: an object whose fields are among `fields`, each a non-negative number (`tokens`
 * and `calls` whole) or undefined. Errors name `source` and the field.
 */
export function readBudget(value: unknown, source: string, fields: readonly BudgetField[] = BUDGET_FIELDS): Budget {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${source}: expected { ${fields.map((f) => `${f}?`).join(', ')} }`)
  }
  const out: Budget = {}
  for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
    if (!(fields as readonly string[]).includes(field)) {
      throw new InputError(`${source}: unknown field "${field}" (use ${fields.join(', ')})`)
    }
    if (v === undefined) continue
    const whole = WHOLE.has(field as BudgetField)
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (whole && !Number.isInteger(v))) {
      throw new InputError(
        `${source}.${field}: expected a non-negative ${whole ? 'integer' : 'number'}, got ${JSON.stringify(v)}`,
      )
    }
    out[field as BudgetField] = v
  }
  return out
}
