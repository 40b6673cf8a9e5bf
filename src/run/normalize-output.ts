import type { AgentRunResult } from '../core/schemas.js'
import { emptyUsage, addUsage, type Usage } from '../core/schemas.js'

export interface NormalizedOutput {
  fixes: unknown[]
  usage: Usage
  steps: number
  model: string | null
  warnings: string[]
  failure: { kind: string; message: string } | null
}

/**
 * Accepts what an agent may return (`Fix[]` or `AgentRunResult`) and says precisely what was wrong otherwise.
 * Individual fixes are not checked here: the grader counts malformed ones as false positives.
 */
export function normalizeAgentOutput(output: unknown): NormalizedOutput {
  if (Array.isArray(output)) {
    return { fixes: output, usage: emptyUsage(), steps: 1, model: null, warnings: [], failure: null }
  }
  if (output && typeof output === 'object' && Array.isArray((output as AgentRunResult).fixes)) {
    const result = output as AgentRunResult
    return {
      fixes: result.fixes,
      usage: addUsage(emptyUsage(), sanitizeUsage(result.usage)),
      steps: typeof result.steps === 'number' && Number.isFinite(result.steps) ? result.steps : 1,
      model: typeof result.model === 'string' ? result.model : null,
      warnings: Array.isArray(result.warnings) ? result.warnings.map(String) : [],
      failure: result.failure ? { kind: String(result.failure.kind), message: String(result.failure.message) } : null,
    }
  }
  throw new TypeError(`agent returned ${describe(output)}; expected an array of fixes or an object with a "fixes" array`)
}

function sanitizeUsage(usage: unknown): Partial<Usage> {
  if (!usage || typeof usage !== 'object') return {}
  const out: Partial<Usage> = {}
  for (const [key, value] of Object.entries(usage)) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) (out as Record<string, number>)[key] = value
  }
  return out
}

export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 5)
    return `an object with keys [${keys.join(', ')}]`
  }
  const text = String(value)
  return `a ${typeof value} (${text.length > 40 ? text.slice(0, 40) + '…' : text})`
}
