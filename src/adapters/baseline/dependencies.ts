import type { ColumnCodes } from './column-codes.js'
import { shapeOf } from './formats.js'
import { codesOf, type Proposal, type WorkingTable } from './working-table.js'

/** An approximate functional dependency `from → to` between column positions. */
interface Dependency {
  from: number
  to: number
  /** How often a further row of a group agrees with the group's majority `to` value (0..1). */
  strength: number
}

export interface DependencyOptions {
  /** Least strength for a dependency to overrule a non-null value. */
  minStrength: number
  /**
   * Least strength for a dependency to fill a null cell. Lower than `minStrength`: a null holds no claim to
   * weigh against the groups' value, so a looser dependency is still worth more than nothing.
   */
  minFillStrength: number
  /** The dependency must cut the disagreement `to` shows on its own by at least this factor. */
  minGain: number
  /** Least share of rows that sit in groups of two or more for a column to serve as a determinant. */
  minCoverage: number
  /** Least number of other rows with a non-null value in a group before that group votes. */
  minOthers: number
  /** Least weighted support the winning value needs (0..1). */
  minSupport: number
  /** The current value's weighted support must be at most this. */
  maxCurrentSupport: number
  /**
   * A common value (one that fills this share of its column's non-null cells, or occurs at least half as often
   * as the column's values do on average) is overruled only under `overruleStrength`. Where a common value
   * breaks a dependency, the dependency is more likely approximate than the value wrong: errors make rare values.
   */
  protectShare: number
  /**
   * A dependency at least this strong may still overrule a common or attested value, where nine in ten of
   * at least three other rows of the group agree on another one.
   */
  overruleStrength: number
  /** Whether the current value may vouch for itself through the dependencies it determines. */
  selfVouching: boolean
  /** In a formatted column, a proposed value must have a shape (`shapeOf`) at least this share of values have. */
  minShapeShare: number
}

export const DEFAULT_DEPENDENCY_OPTIONS: DependencyOptions = {
  minStrength: 0.9,
  minFillStrength: 0.75,
  minGain: 1.5,
  minCoverage: 0.3,
  minOthers: 2,
  minSupport: 0.6,
  maxCurrentSupport: 0.2,
  protectShare: 0.05,
  overruleStrength: 0.95,
  selfVouching: true,
  minShapeShare: 0.1,
}

/** Co-occurrence counts of one column pair, with each group's two most frequent non-null `to` values. */
interface PairStats {
  dep: Dependency
  /** Per row: how many rows share its `from` and `to` values, itself included (0 where either is null). */
  own: Int32Array
  /** Non-null `to` values per `from` code. */
  nonNull: Int32Array
  top1: Int32Array
  top1Count: Int32Array
  top2: Int32Array
  top2Count: Int32Array
  /** `to` codes that lead some `from` group of two or more rows: values the dependency attests as normal. */
  attested: Uint8Array
}

/** Rows grouped by their code in one column (a counting sort): group `c` is `rows[offsets[c]..offsets[c + 1])`. */
interface RowGroups {
  offsets: Int32Array
  rows: Int32Array
}

function groupRows(column: ColumnCodes): RowGroups {
  const n = column.values.length
  const offsets = new Int32Array(n + 1)
  for (let code = 0; code < n; code++)
    offsets[code + 1] = offsets[code]! + (column.isNull[code] ? 0 : column.counts[code]!)
  const next = offsets.slice(0, n)
  const rows = new Int32Array(offsets[n]!)
  for (let r = 0; r < column.codes.length; r++) {
    const code = column.codes[r]!
    if (!column.isNull[code]) rows[next[code]!++] = r
  }
  return { offsets, rows }
}

let scratch = new Int32Array(0)

/**
 * Counts one column pair group by group, tracking each group's two most frequent `to` values as the counts
 * grow (counts only increase, so the running top two stay exact; ties go to the value seen first, in row
 * order). Returns nothing when `accept` rejects the pair's strength.
 */
function pairStats(
  a: ColumnCodes,
  groups: RowGroups,
  b: ColumnCodes,
  from: number,
  to: number,
  accept: (strength: number) => boolean,
): PairStats | undefined {
  const nA = a.values.length
  if (scratch.length < b.values.length) scratch = new Int32Array(b.values.length)
  const nonNull = new Int32Array(nA)
  const top1 = new Int32Array(nA).fill(-1)
  const top1Count = new Int32Array(nA)
  const top2 = new Int32Array(nA).fill(-1)
  const top2Count = new Int32Array(nA)
  const own = new Int32Array(a.codes.length)
  const { offsets, rows } = groups
  for (let ca = 0; ca < nA; ca++) {
    const start = offsets[ca]!
    const end = offsets[ca + 1]!
    let t1 = -1
    let c1 = 0
    let t2 = -1
    let c2 = 0
    let n = 0
    for (let i = start; i < end; i++) {
      const cb = b.codes[rows[i]!]!
      if (b.isNull[cb]) continue
      n++
      const c = ++scratch[cb]!
      if (cb === t1) c1 = c
      else if (c > c1) {
        t2 = t1
        c2 = c1
        t1 = cb
        c1 = c
      } else if (cb === t2) c2 = c
      else if (c > c2) {
        t2 = cb
        c2 = c
      }
    }
    for (let i = start; i < end; i++) {
      const r = rows[i]!
      const cb = b.codes[r]!
      if (!b.isNull[cb]) own[r] = scratch[cb]!
    }
    for (let i = start; i < end; i++) scratch[b.codes[rows[i]!]!] = 0
    nonNull[ca] = n
    top1[ca] = t1
    top1Count[ca] = c1
    top2[ca] = t2
    top2Count[ca] = c2
  }
  const stats: PairStats = {
    dep: { from, to, strength: 0 },
    own,
    nonNull,
    top1,
    top1Count,
    top2,
    top2Count,
    attested: new Uint8Array(0),
  }
  stats.dep.strength = strengthOf(stats)
  if (!accept(stats.dep.strength)) return undefined
  const attested = new Uint8Array(b.values.length)
  for (let ca = 0; ca < nA; ca++) if (top1Count[ca]! >= 2 && top1Count[ca]! > top2Count[ca]!) attested[top1[ca]!] = 1
  stats.attested = attested
  return stats
}

/** Agreement beyond the first row: Σ(majority − 1) / Σ(size − 1) over groups of two or more. */
function strengthOf(stats: PairStats): number {
  let agree = 0
  let total = 0
  for (let ca = 0; ca < stats.nonNull.length; ca++) {
    const n = stats.nonNull[ca]!
    if (n < 2) continue
    agree += stats.top1Count[ca]! - 1
    total += n - 1
  }
  return total === 0 ? 0 : agree / total
}

/** The same agreement measure for a column on its own: how predictable it is without any determinant. */
function baseAgreement(b: ColumnCodes): number {
  let top = 0
  let total = 0
  for (let code = 0; code < b.values.length; code++) {
    if (b.isNull[code]) continue
    total += b.counts[code]!
    if (b.counts[code]! > top) top = b.counts[code]!
  }
  return total < 2 ? 1 : (top - 1) / (total - 1)
}

function coverage(a: ColumnCodes, nRows: number): number {
  let covered = 0
  for (let code = 0; code < a.values.length; code++) {
    if (!a.isNull[code] && a.counts[code]! >= 2) covered += a.counts[code]!
  }
  return nRows === 0 ? 0 : covered / nRows
}

/** The columns encoded once, and the dependencies found between them, grouped by dependent column. */
interface DependencyModel {
  codes: Map<number, ColumnCodes>
  byTarget: Map<number, PairStats[]>
  dependencies: Dependency[]
}

/**
 * Finds approximate dependencies `from → to` between repairable columns: strong (most further rows of a group
 * agree with its majority) and informative (much stronger than the dependent column's own predictability, so a
 * nearly constant column does not make every column look like a determinant).
 */
export function discoverDependencies(
  table: WorkingTable,
  opts: DependencyOptions = DEFAULT_DEPENDENCY_OPTIONS,
  checkpoint: () => void = () => {},
): DependencyModel {
  const codes = new Map<number, ColumnCodes>()
  for (const col of table.repairable) codes.set(col, codesOf(table, col))
  const determinants = table.repairable.filter((col) => {
    const c = codes.get(col)!
    return c.values.length >= 2 && coverage(c, table.nRows) >= opts.minCoverage
  })
  const groups = new Map(determinants.map((col) => [col, groupRows(codes.get(col)!)]))
  const byTarget = new Map<number, PairStats[]>()
  const dependencies: Dependency[] = []
  for (const to of table.repairable) {
    const b = codes.get(to)!
    if (b.values.length < 2) continue
    const base = baseAgreement(b)
    for (const from of determinants) {
      if (from === to) continue
      const stats = pairStats(
        codes.get(from)!,
        groups.get(from)!,
        b,
        from,
        to,
        (strength) =>
          strength >= Math.min(opts.minStrength, opts.minFillStrength) && 1 - strength <= (1 - base) / opts.minGain,
      )
      if (!stats) continue
      dependencies.push(stats.dep)
      const list = byTarget.get(to) ?? []
      list.push(stats)
      byTarget.set(to, list)
    }
    checkpoint()
  }
  return { codes, byTarget, dependencies }
}

/**
 * Lets every row's groups vote on each dependent cell: a cell whose value (or null) disagrees with what its
 * groups agree on gets the groups' value. Votes from several determinants are weighted by strength; the row's
 * own value never votes for itself. Safeguards, each for a failure seen on real data:
 * - a group of one other row cannot propose, but can vouch for the current value (two beers of a brewery in
 *   Athens, GA outvote the five of the Athens, OH brewery);
 * - where `to → from` holds too and the row's `from` value is the odd one out in its `to` group, the `from`
 *   cell is the likelier error, and that determinant abstains (a wrong time must not move a flight);
 * - the current value vouches for itself where, as a determinant, it predicts a cell of the row that the
 *   candidate would contradict (a city that matches the row's state outweighs a zip that does not);
 * - a value is proposed only in a usual format of its column (`minShapeShare`): a group may agree on junk;
 * - a value that leads some other group of the same determinant is a normal value of the column (a 24 oz can
 *   at a brewery of 12 oz cans), and so is a common value (see `protectShare`): only a near-exact dependency
 *   (`overruleStrength`) with a near-unanimous group overrules them.
 */
export function voteWithDependencies(
  table: WorkingTable,
  model: DependencyModel,
  opts: DependencyOptions = DEFAULT_DEPENDENCY_OPTIONS,
  checkpoint: () => void = () => {},
): Proposal[] {
  const { codes, byTarget } = model
  const nCols = table.columns.length
  const statsByPair = new Map<number, PairStats>()
  for (const list of byTarget.values())
    for (const stats of list) statsByPair.set(stats.dep.from * nCols + stats.dep.to, stats)
  const proposals: Proposal[] = []
  for (const [to, statsList] of byTarget) {
    const b = codes.get(to)!
    const nB = b.values.length
    const fromCodes = statsList.map((stats) => codes.get(stats.dep.from)!)
    const reverse = statsList.map((stats) => statsByPair.get(to * nCols + stats.dep.from))
    const outgoing = [...statsByPair.values()].filter(
      (stats) => stats.dep.from === to && stats.dep.strength >= opts.minStrength,
    )
    const outgoingCodes = outgoing.map((stats) => codes.get(stats.dep.to)!)
    const leaders = new Int32Array(statsList.length)
    let nonNull = 0
    let distinct = 0
    for (let code = 0; code < nB; code++) {
      if (b.isNull[code]) continue
      nonNull += b.counts[code]!
      distinct++
    }
    const protectedCount = Math.max(2, Math.min(opts.protectShare * nonNull, nonNull / Math.max(1, distinct) / 2))
    const usualShape = usualShapes(b, opts.minShapeShare)
    const support = new Map<number, number>()
    for (let r = 0; r < table.nRows; r++) {
      const current = b.codes[r]!
      const currentIsNull = b.isNull[current]!
      if (!anyDissent(statsList, fromCodes, r, current, currentIsNull, opts)) continue
      const common = !currentIsNull && b.counts[current]! >= protectedCount
      support.clear()
      leaders.fill(-1)
      let weight = 0
      for (let k = 0; k < statsList.length; k++) {
        const stats = statsList[k]!
        const from = fromCodes[k]!
        const ca = from.codes[r]!
        if (from.isNull[ca] || (!currentIsNull && stats.dep.strength < opts.minStrength)) continue
        const others = stats.nonNull[ca]! - (currentIsNull ? 0 : 1)
        if (others < 1) continue
        const [leader, leaderCount] = leaderAmongOthers(stats, ca, current)
        if (!currentIsNull && leader !== current) {
          // checks on a determinant that would overrule the current value (one backing it always counts)
          const back = reverse[k]
          if (back && isOddOneOut(back, current, ca, opts.minOthers)) continue
          const normal = common || stats.attested[current] === 1
          if (normal && !(stats.dep.strength >= opts.overruleStrength && others >= 3 && leaderCount >= 0.9 * others))
            continue
        }
        const w = stats.dep.strength
        weight += w
        if (leader !== current && leaderCount > 0 && others >= opts.minOthers) {
          leaders[k] = leader
          support.set(leader, (support.get(leader) ?? 0) + (w * leaderCount) / others)
        }
        if (!currentIsNull) {
          const same = stats.own[r]! - 1
          if (same > 0) support.set(current, (support.get(current) ?? 0) + (w * same) / others)
        }
      }
      if (weight === 0) continue
      let best = -1
      let bestSupport = 0
      for (const [code, value] of support) {
        if (code === current) continue
        if (value > bestSupport || (value === bestSupport && code < best)) {
          best = code
          bestSupport = value
        }
      }
      if (best < 0 || !usualShape(best)) continue
      if (opts.selfVouching && !currentIsNull) {
        // The current value as a determinant: where it predicts a cell of the row that the candidate would
        // contradict, the row backs the current value.
        for (let k = 0; k < outgoing.length; k++) {
          const stats = outgoing[k]!
          const rowValue = outgoingCodes[k]!.codes[r]!
          if (outgoingCodes[k]!.isNull[rowValue]) continue
          const others = stats.nonNull[current]! - 1
          if (others < opts.minOthers || stats.top1[best] === rowValue) continue
          const [leader, leaderCount] = leaderAmongOthers(stats, current, rowValue)
          if (leader !== rowValue) continue
          weight += stats.dep.strength
          support.set(current, (support.get(current) ?? 0) + (stats.dep.strength * leaderCount) / others)
        }
      }
      const currentSupport = currentIsNull ? 0 : (support.get(current) ?? 0) / weight
      if (bestSupport / weight < opts.minSupport || currentSupport > opts.maxCurrentSupport) continue
      const voters = statsList.filter((_, k) => leaders[k] === best).map((stats) => table.columns[stats.dep.from])
      proposals.push({
        row: r,
        col: to,
        value: b.values[best]!,
        reason: `majority of rows sharing ${voters.join(' / ')}`,
      })
    }
    checkpoint()
  }
  return proposals
}

/** Cheap first look at a row: does any group that may vote hold a leader other than the row's value? */
function anyDissent(
  statsList: readonly PairStats[],
  fromCodes: readonly ColumnCodes[],
  r: number,
  current: number,
  currentIsNull: boolean,
  opts: DependencyOptions,
): boolean {
  for (let k = 0; k < statsList.length; k++) {
    const stats = statsList[k]!
    const ca = fromCodes[k]!.codes[r]!
    if (fromCodes[k]!.isNull[ca] || (!currentIsNull && stats.dep.strength < opts.minStrength)) continue
    if (stats.nonNull[ca]! - (currentIsNull ? 0 : 1) < opts.minOthers) continue
    const top1 = stats.top1[ca]!
    if (top1 < 0) continue
    if (top1 !== current || stats.top2Count[ca]! > stats.top1Count[ca]! - 1) return true
  }
  return false
}

/** The most frequent `to` value in the `from` group `ca`, leaving out one occurrence of the row's own value. */
function leaderAmongOthers(stats: PairStats, ca: number, current: number): [number, number] {
  const top1 = stats.top1[ca]!
  const top1Count = stats.top1Count[ca]! - (top1 === current ? 1 : 0)
  const top2Count = stats.top2Count[ca]! - (stats.top2[ca] === current ? 1 : 0)
  return top1Count >= top2Count ? [top1, top1Count] : [stats.top2[ca]!, top2Count]
}

/**
 * Whether, among the other rows holding `value` (the `from` of the reverse statistics), the row's own
 * `reverseTo` value is outnumbered by another one.
 */
function isOddOneOut(back: PairStats, value: number, rowValue: number, minOthers: number): boolean {
  const others = back.nonNull[value]! - 1
  if (others < minOthers) return false
  const [leader, leaderCount] = leaderAmongOthers(back, value, rowValue)
  return leader !== rowValue && leaderCount > 0
}

/**
 * Whether a code's value has a shape shared by at least `minShare` of the column's non-null values, in a column
 * where one shape covers at least half of them (a formatted column: times, codes, numbers).
 */
function usualShapes(column: ColumnCodes, minShare: number): (code: number) => boolean {
  const shapes = column.values.map(shapeOf)
  const counts = new Map<string, number>()
  let nonNull = 0
  shapes.forEach((shape, code) => {
    if (column.isNull[code]) return
    nonNull += column.counts[code]!
    counts.set(shape, (counts.get(shape) ?? 0) + column.counts[code]!)
  })
  const top = Math.max(0, ...counts.values())
  // free text has no dominant shape, and there the check says nothing
  if (top < 0.5 * nonNull) return () => true
  return (code) => (counts.get(shapes[code]!) ?? 0) >= minShare * nonNull
}
