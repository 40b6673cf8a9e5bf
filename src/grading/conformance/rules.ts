import type { z } from 'zod'
import { InputError } from '../../core/errors.js'
import { describeIssue, firstIssue } from './issue-path.js'
import { linearPattern } from './linear-pattern.js'
import { zod } from './zod-on-demand.js'
import { dataRecord, ownValue } from '../../core/data-record.js'
import { dataRecordSchema } from '../../core/data-record-schema.js'

/** A zod schema each sample must satisfy, or its JSON description (what a spec file can carry). */
export type SampleRules = z.ZodType | RulesDescription

/**
 * Per-sample rules in JSON: `required` fields must be present and not empty; `fields` constrain a field's
 * type, format, range, length, pattern or allowed values wherever it is present. Numbers may be written as
 * numeric strings (CSV cells are text).
 */
export interface RulesDescription {
  required?: string[]
  fields?: Record<string, FieldRule>
}

export interface FieldRule {
  type?: 'string' | 'number' | 'integer' | 'boolean'
  format?: (typeof FORMATS)[number]
  min?: number
  max?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  enum?: Array<string | number | boolean>
}

const FORMATS = ['email', 'url', 'uuid', 'date', 'datetime'] as const

let descriptionSchema: z.ZodType<RulesDescription> | undefined

/** The schema of a JSON rules description (built on first use: see zod-on-demand.ts). */
function rulesDescriptionSchema(): z.ZodType<RulesDescription> {
  if (descriptionSchema) return descriptionSchema
  const z = zod()
  const FieldRuleSchema = z
    .object({
      type: z.enum(['string', 'number', 'integer', 'boolean']).optional(),
      format: z.enum(FORMATS).optional(),
      min: z.number().optional(),
      max: z.number().optional(),
      minLength: z.number().int().nonnegative().optional(),
      maxLength: z.number().int().nonnegative().optional(),
      pattern: z.string().optional(),
      enum: z
        .array(z.union([z.string(), z.number(), z.boolean()]))
        .min(1)
        .optional(),
    })
    .strict()
  descriptionSchema = z
    .object({
      required: z.array(z.string().min(1)).optional(),
      fields: dataRecordSchema(FieldRuleSchema, z).optional(),
    })
    .strict()
  return descriptionSchema
}

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function'
  )
}

/** A zod schema as given; a JSON description compiled to one (an object schema that keeps other fields). */
export function rulesSchema(rules: SampleRules, where = 'rules'): z.ZodType {
  if (isZodSchema(rules)) return rules
  const parsed = rulesDescriptionSchema().safeParse(rules)
  if (!parsed.success) {
    const issue = firstIssue(parsed.error.issues)
    throw new InputError(`${where}${issue.path.length ? '.' : ': '}${describeIssue(issue)}`)
  }
  const description = parsed.data
  const required = new Set(description.required ?? [])
  const names = [...new Set([...required, ...Object.keys(description.fields ?? {})])]
  const z = zod()
  const shape = dataRecord<z.ZodType>()
  for (const name of names) {
    const rule = (description.fields && ownValue(description.fields, name)) ?? {}
    const field = fieldSchema(rule as FieldRule, `${where}.fields.${name}`)
    shape[name] = required.has(name)
      ? z.unknown().refine(isPresent, { message: 'required field is missing or empty' }).pipe(field)
      : field.optional()
  }
  return z.looseObject(shape)
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== ''
}

function fieldSchema(rule: FieldRule, where: string): z.ZodType {
  const z = zod()
  let base: z.ZodType
  if (
    rule.type === 'number' ||
    rule.type === 'integer' ||
    (rule.type === undefined && (rule.min !== undefined || rule.max !== undefined))
  ) {
    let n = z.number()
    if (rule.type === 'integer') n = n.int()
    if (rule.min !== undefined) n = n.min(rule.min)
    if (rule.max !== undefined) n = n.max(rule.max)
    base = z.preprocess(numericText, n)
  } else if (rule.type === 'boolean') {
    base = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
  } else if (
    rule.type === 'string' ||
    rule.format ||
    rule.minLength !== undefined ||
    rule.maxLength !== undefined ||
    rule.pattern !== undefined
  ) {
    let s = z.string()
    if (rule.minLength !== undefined) s = s.min(rule.minLength)
    if (rule.maxLength !== undefined) s = s.max(rule.maxLength)
    if (rule.pattern !== undefined) {
      const pattern = rule.pattern
      const test = linearPattern(pattern, `${where}.pattern`)
      s = s.refine(test, { message: `does not match the pattern ${JSON.stringify(pattern)}` })
    }
    base = rule.format ? s.pipe(formatSchema(rule.format)) : s
  } else {
    base = z.unknown()
  }
  if (rule.enum) {
    const allowed = rule.enum
    base = base.refine((v) => allowed.some((a) => a === v || String(a) === String(v)), {
      message: `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
    })
  }
  return base
}

function numericText(value: unknown): unknown {
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return value
}

function formatSchema(format: (typeof FORMATS)[number]): z.ZodType<string, string> {
  const z = zod()
  switch (format) {
    case 'email':
      return z.email()
    case 'url':
      return z.url()
    case 'uuid':
      return z.uuid()
    case 'date':
      return z.iso.date()
    case 'datetime':
      return z.iso.datetime({ offset: true })
  }
}

/** The sample's rule violations as `field: message` lines (empty when it passes). */
export function ruleViolations(schema: z.ZodType, sample: unknown): string[] {
  const result = schema.safeParse(sample)
  if (result.success) return []
  return result.error.issues.map((issue) => describeIssue(issue))
}
