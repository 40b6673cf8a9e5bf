import type { z } from 'zod'
import { InputError } from '../../core/errors.js'
import { describeIssue, firstIssue } from './issue-path.js'
import { rulesSchema, type SampleRules } from './rules.js'
import { zod } from './zod-on-demand.js'
import { dataRecordSchema } from '../../core/data-record-schema.js'

/** Requested shares may miss 100 by this much (rounding in hand-written specs). */
export const SHARE_SUM_TOLERANCE = 0.01

export interface ConformanceProperty {
  /** The property, e.g. `sentiment`. */
  name: string
  /** Requested distribution: label → percentage; the percentages sum to 100 (± 0.01). Zero shares are allowed. */
  distribution: Record<string, number>
  /**
   * Field naming the label each sample was asked to have (the generation plan). When given, every sample must
   * carry it, and `expectedDistributions` counts the plan instead of rounding the request.
   */
  planField?: string
  /** What the property means, for model classifiers' prompts. */
  description?: string
}

export interface ConformanceSpec {
  properties: ConformanceProperty[]
  /** Per-sample rules: a zod schema, or its JSON description (`required`, `fields`). */
  rules?: SampleRules
}

let specSchema: z.ZodType<{ properties: ConformanceProperty[] }> | undefined

function specSchemaOf(): z.ZodType<{ properties: ConformanceProperty[] }> {
  if (specSchema) return specSchema
  const z = zod()
  const PropertySchema = z
    .object({
      name: z.string().min(1, 'name must not be empty'),
      distribution: dataRecordSchema(z.number().finite().nonnegative('shares must be ≥ 0'), z).refine(
        (d) => !Object.hasOwn(d, ''),
        'labels must not be empty',
      ),
      planField: z.string().min(1).optional(),
      description: z.string().optional(),
    })
    .strict()
  specSchema = z
    .object({
      properties: z.array(PropertySchema).min(1, 'at least one property is needed'),
      rules: z.unknown().optional(),
    })
    .strict()
  return specSchema
}

/** A checked spec: property order and label order as written; rules compiled to a zod schema. */
export interface ResolvedSpec {
  properties: Array<ConformanceProperty & { labels: string[] }>
  rules: z.ZodType | null
}

/**
 * Checks a spec (from code or a JSON file) and names what is wrong in one line: the source, the field path
 * and the property (`spec.json: property "sentiment": shares sum to 99.5, not 100 (± 0.01)`).
 */
export function resolveSpec(spec: unknown, source = 'spec'): ResolvedSpec {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new InputError(`${source}: expected an object with "properties"`)
  }
  const rawRules = (spec as { rules?: unknown }).rules
  const parsed = specSchemaOf().safeParse(spec)
  if (!parsed.success) throw new InputError(`${source}: ${describeIssue(firstIssue(parsed.error.issues))}`)
  const seen = new Set<string>()
  const properties = parsed.data.properties.map((p) => {
    if (seen.has(p.name)) throw new InputError(`${source}: property "${p.name}" appears twice`)
    seen.add(p.name)
    const labels = Object.keys(p.distribution)
    if (labels.length === 0) throw new InputError(`${source}: property "${p.name}": distribution has no labels`)
    const sum = labels.reduce((a, l) => a + p.distribution[l]!, 0)
    if (Math.abs(sum - 100) > SHARE_SUM_TOLERANCE) {
      throw new InputError(
        `${source}: property "${p.name}": shares sum to ${Number(sum.toFixed(6))}, not 100 (± ${SHARE_SUM_TOLERANCE})`,
      )
    }
    return { ...p, labels }
  })
  const rules = rawRules === undefined ? null : rulesSchema(rawRules as SampleRules, `${source}: rules`)
  return { properties, rules }
}
