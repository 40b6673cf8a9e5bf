import type { z as Z } from 'zod'
import { dataRecord } from './data-record.js'
import { isPlainObject } from './is-plain-object.js'

/**
 * `z.record(z.string(), value)` for records keyed by data, parsed into a `dataRecord`: zod's record skips a
 * `__proto__` key (a column of that name would vanish from a report read back), this one keeps it. Issues
 * carry the key in their path, as zod's record's do. `z`: the zod namespace
 * (a parameter, so callers that load zod on demand keep doing so).
 */
export function dataRecordSchema<V extends Z.ZodType>(value: V, z: typeof Z): Z.ZodType<Record<string, Z.output<V>>> {
  return z.unknown().transform((input, ctx) => {
    if (!isPlainObject(input)) {
      ctx.addIssue({
        code: 'custom',
        message: `Invalid input: expected record, received ${input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input}`,
      })
      return z.NEVER
    }
    const out = dataRecord<Z.output<V>>()
    for (const key of Object.keys(input)) {
      const result = value.safeParse(input[key])
      if (result.success) out[key] = result.data
      else
        for (const issue of result.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] })
    }
    return out
  }) as unknown as Z.ZodType<Record<string, Z.output<V>>>
}
