import { dataRecord } from './data-record.js'

/**
 * The one order of reports and files: strings by UTF-16 code unit (what `Array.prototype.sort` does by
 * default), the same on every machine and locale, so what is written diffs only where it changed.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Entries of a map or record, sorted by key in that order. */
export function sortedEntries<T>(entries: Iterable<readonly [string, T]> | Record<string, T>): Array<[string, T]> {
  const list: Array<[string, T]> =
    Symbol.iterator in Object(entries)
      ? [...(entries as Iterable<[string, T]>)]
      : Object.entries(entries as Record<string, T>)
  return list.sort(([a], [b]) => compareText(a, b))
}

/** A record with its keys in that order (no prototype: its keys may come from data). */
export function sortedRecord<T>(entries: Iterable<readonly [string, T]> | Record<string, T>): Record<string, T> {
  return dataRecord(sortedEntries(entries))
}
