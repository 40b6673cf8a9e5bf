import { truncate } from '../core/text.js'
import { types } from 'node:util'
import { AgentFailure } from '../core/errors.js'
import type { AgentRunResult } from '../core/schemas.js'
import type { Usage } from '../core/schemas.js'
import { addUsage, emptyUsage } from '../core/usage.js'

export interface NormalizedOutput {
  fixes: unknown[]
  usage: Usage
  steps: number
  model: string | null
  warnings: string[]
  failure: { kind: string; message: string } | null
}

/**
 * Accepts what an agent may return (`Fix[]` or `AgentRunResult`) and says precisely what was wrong otherwise
 * (an `invalid_output` failure). Fix arrays are checked before anything walks them: a proxy, a sparse array or
 * more than `maxFixes` items fail at once, so `length = 2**32 - 1` costs nothing. Individual fixes are not
 * checked here: the grader counts malformed ones as false positives.
 */
export function normalizeAgentOutput(output: unknown, limits: { maxFixes?: number } = {}): NormalizedOutput {
  if (Array.isArray(output)) {
    return {
      fixes: checkedFixes(output, limits.maxFixes),
      usage: emptyUsage(),
      steps: 1,
      model: null,
      warnings: [],
      failure: null,
    }
  }
  if (
    output &&
    typeof output === 'object' &&
    !types.isProxy(output) &&
    Array.isArray((output as AgentRunResult).fixes)
  ) {
    const result = output as AgentRunResult
    return {
      fixes: checkedFixes(result.fixes, limits.maxFixes),
      usage: addUsage(emptyUsage(), sanitizeUsage(result.usage)),
      steps: typeof result.steps === 'number' && Number.isInteger(result.steps) && result.steps >= 0 ? result.steps : 1,
      model: typeof result.model === 'string' ? result.model : null,
      warnings:
        Array.isArray(result.warnings) && !types.isProxy(result.warnings)
          ? result.warnings.slice(0, 1000).map(String)
          : [],
      failure: result.failure ? { kind: String(result.failure.kind), message: String(result.failure.message) } : null,
    }
  }
  throw new AgentFailure(
    'invalid_output',
    `agent returned ${describe(output)}; expected an array of fixes or an object with a "fixes" array`,
  )
}

function checkedFixes(fixes: unknown[], maxFixes = Number.POSITIVE_INFINITY): unknown[] {
  if (types.isProxy(fixes)) throw new AgentFailure('invalid_output', 'agent returned a proxied array of fixes')
  if (fixes.length > maxFixes) {
    throw new AgentFailure(
      'invalid_output',
      `agent returned ${fixes.length} fixes for a table of ${maxFixes / 4} cells (at most 4 per cell)`,
    )
  }
  for (let i = 0; i < fixes.length; i++) {
    if (!(i in fixes))
      throw new AgentFailure('invalid_output', `agent returned a sparse array of fixes (no item at index ${i})`)
  }
  return fixes
}

/** Usage as recorded: only finite, non-negative numbers of the known fields; anything else is dropped. */
export function sanitizeUsage(usage: unknown): Partial<Usage> {
  if (!usage || typeof usage !== 'object' || types.isProxy(usage)) return {}
  const out: Partial<Usage> = {}
  for (const key of Object.keys(emptyUsage()) as Array<keyof Usage>) {
    const value = (usage as Record<string, unknown>)[key]
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) out[key] = value
  }
  return out
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 5)
    return `an object with keys [${keys.join(', ')}]`
  }
  const text = String(value)
  return `a ${typeof value} (${truncate(text, 41)})`
}
