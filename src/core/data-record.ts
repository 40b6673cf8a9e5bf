/**
 * Records keyed by strings that come from data (column names, labels, metric names, categories) have no
 * prototype: a key `__proto__`, `constructor` or `toString` is an ordinary key, never Object.prototype's.
 * `{}[key] = v` with key `__proto__` replaces the object's prototype instead of adding a key, and
 * `{}['constructor']` reads a function; both have broken reports (issue 26).
 */
export function dataRecord<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>
  if (entries) for (const [k, v] of entries) out[k] = v
  return out
}

/** The own value under `key`, or undefined: never an inherited one (`__proto__`, `constructor`). */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}
