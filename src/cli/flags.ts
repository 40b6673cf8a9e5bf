import { InputError } from '../core/errors.js'

/** `--agent a,b --agent c` → ['a', 'b', 'c']. */
export function splitList(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)
}

export function parseIntegerFlag(name: string, raw: string | undefined, fallback: number, range: { min?: number; max?: number }): number {
  if (raw === undefined) return fallback
  if (!/^-?\d+$/.test(raw.trim())) throw new InputError(`--${name} must be an integer, got "${raw}"`)
  const value = Number(raw)
  checkRange(name, value, range)
  return value
}

export function parseNumberFlag(
  name: string,
  raw: string | undefined,
  fallback: number,
  range: { min?: number; max?: number; exclusiveMin?: boolean },
): number {
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value)) throw new InputError(`--${name} must be a number, got "${raw}"`)
  if (range.exclusiveMin && range.min !== undefined && value <= range.min) throw new InputError(`--${name} must be > ${range.min}, got ${raw}`)
  checkRange(name, value, range)
  return value
}

function checkRange(name: string, value: number, range: { min?: number; max?: number }): void {
  if (range.min !== undefined && value < range.min) throw new InputError(`--${name} must be ≥ ${range.min}, got ${value}`)
  if (range.max !== undefined && value > range.max) throw new InputError(`--${name} must be ≤ ${range.max}, got ${value}`)
}
