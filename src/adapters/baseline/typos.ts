import { boundedEditDistance } from './edit-distance.js'
import { codesOf, type Proposal, type WorkingTable } from './working-table.js'

const DIGIT = /\d/
/** Above this many rare × frequent comparisons, candidates come from a one-deletion index instead of a scan. */
const FULL_SCAN_BUDGET = 200_000

export interface TypoOptions {
  /** A column qualifies when its distinct non-null values are at most this share of its rows. */
  maxDistinctShare: number
  /** A replacement must occur at least this many times… */
  minTargetCount: number
  /** …and this many times as often as the value it replaces. */
  minRatio: number
  /** Among equally near replacements the most frequent must be this many times as frequent as the next. */
  minLeadRatio: number
}

export const DEFAULT_TYPO_OPTIONS: TypoOptions = {
  maxDistinctShare: 0.2,
  minTargetCount: 5,
  minRatio: 20,
  minLeadRatio: 3,
}

/** Edits allowed for a value of this length: one per four characters, at most three (none below four). */
function maxEdits(length: number): number {
  return Math.min(3, Math.floor(length / 4))
}

/**
 * In low-cardinality text columns, a rare value within a few edits of a much more frequent one is taken for a
 * misspelling of it (`yxs` → `yes`); failing that, a rare value that a much more frequent one begins with is
 * taken for a truncation of it (`Stand.` → `Standard`). Values with digits (numbers, codes, times) are never
 * respelled (a rare `13` beside a common `12` is data), values under four characters are never edited, and an
 * ambiguous value (two frequent candidates, neither three times as frequent as the other) is left alone.
 */
export function repairTypos(table: WorkingTable, opts: TypoOptions = DEFAULT_TYPO_OPTIONS): Proposal[] {
  const out: Proposal[] = []
  for (const col of table.repairable) {
    const c = codesOf(table, col)
    const nonNullCodes = c.values.map((_, code) => code).filter((code) => !c.isNull[code])
    const rows = nonNullCodes.reduce((sum, code) => sum + c.counts[code]!, 0)
    if (nonNullCodes.length < 2 || nonNullCodes.length > opts.maxDistinctShare * rows) continue
    const frequent = nonNullCodes
      .filter((code) => c.counts[code]! >= opts.minTargetCount)
      .sort((x, y) => c.counts[y]! - c.counts[x]! || (c.values[x]! < c.values[y]! ? -1 : 1))
    const replacement = new Map<number, number>()
    const topCount = frequent.length > 0 ? c.counts[frequent[0]!]! : 0
    const rare = nonNullCodes.filter(
      (code) => opts.minRatio * c.counts[code]! <= topCount && !DIGIT.test(c.values[code]!),
    )
    const index = rare.length * frequent.length > FULL_SCAN_BUDGET ? deletionIndex(frequent, c.values) : undefined
    for (const code of rare) {
      const value = c.values[code]!
      const count = c.counts[code]!
      const limit = maxEdits(value.length)
      let bestDistance = limit + 1
      let best: number[] = []
      for (const target of limit === 0
        ? []
        : index
          ? candidatesFrom(index, value).map((rank) => frequent[rank]!)
          : frequent) {
        if (c.counts[target]! < opts.minRatio * count) break // sorted by count, descending
        if (target === code) continue
        const d = boundedEditDistance(value, c.values[target]!, Math.min(limit, bestDistance))
        if (d < bestDistance) {
          bestDistance = d
          best = [target]
        } else if (d === bestDistance && d <= limit) {
          best.push(target)
        }
      }
      if (best.length === 0) best = prefixTargets(value, count, frequent, c.values, c.counts, opts.minRatio)
      if (best.length === 0) continue
      const [first, second] = best
      if (second !== undefined && c.counts[first!]! < opts.minLeadRatio * c.counts[second]!) continue
      replacement.set(code, first!)
    }
    if (replacement.size === 0) continue
    for (let r = 0; r < table.nRows; r++) {
      const target = replacement.get(c.codes[r]!)
      if (target !== undefined) {
        out.push({
          row: r,
          col,
          value: c.values[target]!,
          reason: `misspelling or truncation of the frequent value "${c.values[target]}"`,
        })
      }
    }
  }
  return out
}

/** Frequent values that a truncated value (`Stand.`, `Bas`; three letters at least) is the beginning of. */
function prefixTargets(
  value: string,
  count: number,
  frequent: readonly number[],
  values: readonly string[],
  counts: readonly number[],
  minRatio: number,
): number[] {
  const stem = value.endsWith('.') ? value.slice(0, -1) : value
  if (stem.length < 3) return []
  const out: number[] = []
  for (const t of frequent) {
    if (counts[t]! < minRatio * count) break
    if (values[t]!.length > stem.length && values[t]!.startsWith(stem)) out.push(t)
  }
  return out
}

/**
 * Each value and its one-character deletions, mapped to the ranks (positions in `codes`) of the values they
 * come from (SymSpell with distance 1).
 */
function deletionIndex(codes: readonly number[], values: readonly string[]): Map<string, number[]> {
  const index = new Map<string, number[]>()
  codes.forEach((code, rank) => {
    for (const key of withDeletions(values[code]!)) {
      const list = index.get(key)
      if (!list) index.set(key, [rank])
      else if (list[list.length - 1] !== rank) list.push(rank)
    }
  })
  return index
}

/**
 * Ranks of the indexed values sharing the value or one of its deletions with a deletion of theirs: every value
 * one substitution, insertion, deletion or adjacent swap away. Ascending, so in the index's order.
 */
function candidatesFrom(index: ReadonlyMap<string, number[]>, value: string): number[] {
  const found = new Set<number>()
  for (const key of withDeletions(value)) for (const code of index.get(key) ?? []) found.add(code)
  return [...found].sort((x, y) => x - y)
}

function withDeletions(value: string): Set<string> {
  const keys = new Set([value])
  for (let i = 0; i < value.length; i++) keys.add(value.slice(0, i) + value.slice(i + 1))
  return keys
}
