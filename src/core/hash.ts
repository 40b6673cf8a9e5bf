import { createHash, hash } from 'node:crypto'
import { dataRecord } from './data-record.js'

/** JSON with object keys sorted at every depth: equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out = dataRecord<unknown>()
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = sortKeys(v)
    }
    return out
  }
  return value
}

/** The one sha256 of the project: of bytes or a string's UTF-8. */
export function sha256Hex(data: string | Uint8Array): string {
  // One-shot (Node ≥ 20.12): no Hash object per call, which counts at one config id per record.
  return hash('sha256', data, 'hex')
}

/** An incremental sha256 for data fed in pieces; `digest('hex')` gives what `sha256Hex` of the whole would. */
export function sha256Incremental(): { update(data: Uint8Array): unknown; digest(encoding: 'hex'): string } {
  return createHash('sha256')
}

export function hashOf(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}

/**
 * The sha256 of a question case's or conversation's tables: of their canonical JSON (keys sorted at every
 * depth). One of the three "dataset sha256" meanings (see dataset-info.ts).
 */
export function tablesJsonSha256(tables: unknown): string {
  return hashOf(tables)
}
