/**
 * A structural check of Vega-Lite specs: enough to tell a chart an agent really produced from a
 * half-written or invented one, without pulling in the Vega-Lite compiler.
 */

import { vegaLiteNames } from './vega-lite-names.js'

export interface SpecCheck {
  /** Why the spec is not valid; empty when it is. */
  problems: string[]
  /** Mark types used by its unit specs. */
  marks: Set<string>
  /** Encoding channels used by its unit specs. */
  channels: Set<string>
}

/** Known data in scope: whether any source exists, and its field names when they can be known (else null). */
interface Scope {
  hasData: boolean
  fields: Set<string> | null
}

type Json = Record<string, unknown>

const COMPOSITIONS = ['layer', 'hconcat', 'vconcat', 'concat'] as const
// Channels whose definition may be a list of field definitions.
const LIST_CHANNELS = new Set(['tooltip', 'detail', 'order'])

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Checks one top-level spec. */
export function checkVegaLite(spec: unknown): SpecCheck {
  const out: SpecCheck = { problems: [], marks: new Set(), channels: new Set() }
  if (!isObject(spec)) {
    out.problems.push('spec is not an object')
    return out
  }
  const schema = spec['$schema']
  if (typeof schema === 'string' && /\/vega\//.test(schema) && !/vega-lite/.test(schema)) {
    out.problems.push(`$schema ${JSON.stringify(schema)} is a Vega spec, not Vega-Lite`)
  }
  const datasets = isObject(spec['datasets']) ? spec['datasets'] : {}
  checkSpec(spec, 'spec', { hasData: false, fields: null }, datasets, out)
  return out
}

function checkSpec(spec: unknown, path: string, parent: Scope, datasets: Json, out: SpecCheck): void {
  if (!isObject(spec)) {
    out.problems.push(`${path} is not an object`)
    return
  }
  let scope = 'data' in spec ? dataScope(spec['data'], `${path}.data`, datasets, out) : parent
  if ('transform' in spec) scope = transformScope(spec['transform'], `${path}.transform`, scope, out)

  if ('mark' in spec) {
    checkUnit(spec, path, scope, out)
    return
  }
  let composed = false
  for (const key of COMPOSITIONS) {
    if (!(key in spec)) continue
    composed = true
    const children = spec[key]
    if (!Array.isArray(children) || children.length === 0) {
      out.problems.push(`${path}.${key} must be a non-empty list of specs`)
      continue
    }
    children.forEach((child, i) => {
      checkSpec(child, `${path}.${key}[${i}]`, scope, datasets, out)
    })
  }
  for (const key of ['facet', 'repeat'] as const) {
    if (!(key in spec)) continue
    composed = true
    if (!('spec' in spec)) {
      out.problems.push(`${path} has ${key} but no spec to repeat it over`)
      continue
    }
    if (key === 'facet') checkFacetFields(spec['facet'], `${path}.facet`, scope, out)
    checkSpec(spec['spec'], `${path}.spec`, scope, datasets, out)
  }
  if (!composed) {
    out.problems.push(`${path} has no mark and no composition (layer, hconcat, vconcat, concat, facet, repeat)`)
  }
}

function dataScope(data: unknown, path: string, datasets: Json, out: SpecCheck): Scope {
  // data: null detaches a child from its parent's data.
  if (data === null) return { hasData: false, fields: null }
  if (!isObject(data)) {
    out.problems.push(`${path} is not an object`)
    return { hasData: false, fields: null }
  }
  if ('values' in data) {
    const values = data['values']
    if (Array.isArray(values)) {
      if (values.length === 0) {
        out.problems.push(`${path}.values is empty (a chart of no data)`)
        return { hasData: false, fields: null }
      }
      return { hasData: true, fields: fieldsOf(values) }
    }
    // Inline CSV/JSON text or a GeoJSON object: present, fields unknown.
    return { hasData: values !== undefined && values !== null, fields: null }
  }
  if (typeof data['url'] === 'string' && data['url'] !== '') return { hasData: true, fields: null }
  if (typeof data['name'] === 'string' && data['name'] !== '') {
    const named = datasets[data['name']]
    if (Array.isArray(named) && named.length > 0) return { hasData: true, fields: fieldsOf(named) }
    return { hasData: true, fields: null }
  }
  out.problems.push(`${path} has none of values, url or name`)
  return { hasData: false, fields: null }
}

function fieldsOf(values: unknown[]): Set<string> {
  const fields = new Set<string>()
  for (const row of values) {
    // Vega-Lite wraps primitive values as { data: value }.
    if (isObject(row)) for (const key of Object.keys(row)) fields.add(key)
    else fields.add('data')
  }
  return fields
}

/** Adds the fields transforms declare; a transform whose outputs cannot be known switches field checks off. */
function transformScope(transform: unknown, path: string, scope: Scope, out: SpecCheck): Scope {
  if (!Array.isArray(transform)) {
    out.problems.push(`${path} must be a list`)
    return scope
  }
  if (scope.fields === null) return scope
  const fields = new Set(scope.fields)
  const addAs = (as: unknown) => {
    if (typeof as === 'string') fields.add(as)
    else if (Array.isArray(as)) for (const a of as) if (typeof a === 'string') fields.add(a)
  }
  for (const t of transform) {
    if (!isObject(t)) continue
    if ('pivot' in t) return { hasData: scope.hasData, fields: null }
    if ('lookup' in t) {
      const from = t['from']
      if (isObject(from) && Array.isArray(from['fields'])) addAs(from['fields'])
      else if (!('as' in t)) return { hasData: scope.hasData, fields: null }
    }
    addAs(t['as'])
    for (const key of ['aggregate', 'window', 'joinaggregate']) {
      const ops = t[key]
      if (Array.isArray(ops)) for (const op of ops) if (isObject(op)) addAs(op['as'])
    }
    if ('fold' in t && !('as' in t)) addAs(['key', 'value'])
    if ('density' in t && !('as' in t)) addAs(['value', 'density'])
    if ('quantile' in t && !('as' in t)) addAs(['prob', 'value'])
  }
  return { hasData: scope.hasData, fields }
}

function checkUnit(spec: Json, path: string, scope: Scope, out: SpecCheck): void {
  const mark = spec['mark']
  const type = typeof mark === 'string' ? mark : isObject(mark) ? mark['type'] : undefined
  if (typeof type !== 'string') {
    out.problems.push(`${path}.mark must be a mark type or an object with a type`)
  } else if (!vegaLiteNames().marks.has(type)) {
    out.problems.push(`${path}.mark ${JSON.stringify(type)} is not a Vega-Lite mark type`)
  } else {
    out.marks.add(type)
  }
  const label = typeof type === 'string' ? ` (mark ${JSON.stringify(type)})` : ''
  if (!scope.hasData) out.problems.push(`${path}${label} has no data (values, url or name) here or above`)
  const encoding = spec['encoding']
  if (!isObject(encoding) || Object.keys(encoding).length === 0) {
    out.problems.push(`${path}${label} has no encoding`)
    return
  }
  for (const [channel, def] of Object.entries(encoding)) {
    const where = `${path}.encoding.${channel}`
    if (!vegaLiteNames().channels.has(channel)) {
      out.problems.push(`${where}: ${JSON.stringify(channel)} is not a Vega-Lite encoding channel`)
      continue
    }
    out.channels.add(channel)
    if (def === null && channel === 'tooltip') continue
    const defs = Array.isArray(def) && LIST_CHANNELS.has(channel) ? def : [def]
    defs.forEach((d, i) => {
      checkChannelDef(d, Array.isArray(def) ? `${where}[${i}]` : where, scope, out)
    })
  }
}

function checkChannelDef(def: unknown, where: string, scope: Scope, out: SpecCheck): void {
  if (!isObject(def)) {
    out.problems.push(`${where} is not a channel definition object`)
    return
  }
  if (!['field', 'value', 'datum', 'aggregate', 'condition', 'signal'].some((k) => k in def)) {
    out.problems.push(`${where} has no field, datum or value`)
    return
  }
  if ('field' in def) checkField(def['field'], where, scope, out)
}

function checkField(field: unknown, where: string, scope: Scope, out: SpecCheck): void {
  if (isObject(field) && 'repeat' in field) return
  if (typeof field !== 'string' || field === '') {
    out.problems.push(`${where}.field must be a non-empty string`)
    return
  }
  if (scope.fields === null) return
  // "a.b" reads nested field b of a; "a\.b" is a field named "a.b". Check the top-level name.
  const top = (field.split(/(?<!\\)\./)[0] ?? field).replace(/\\(.)/g, '$1')
  if (!scope.fields.has(top) && !scope.fields.has(field.replace(/\\(.)/g, '$1'))) {
    const known = [...scope.fields]
      .slice(0, 8)
      .map((f) => JSON.stringify(f))
      .join(', ')
    out.problems.push(`${where}.field ${JSON.stringify(field)} is not in the data (fields: ${known})`)
  }
}

function checkFacetFields(facet: unknown, where: string, scope: Scope, out: SpecCheck): void {
  if (!isObject(facet)) {
    out.problems.push(`${where} is not an object`)
    return
  }
  if ('field' in facet) checkField(facet['field'], where, scope, out)
  for (const key of ['row', 'column']) {
    const def = facet[key]
    if (isObject(def) && 'field' in def) checkField(def['field'], `${where}.${key}`, scope, out)
  }
}
