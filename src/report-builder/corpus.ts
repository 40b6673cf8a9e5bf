import { InputError } from '../core/errors.js'
import { canonicalJson } from '../core/hash.js'
import type { RunRecord } from '../core/run-record.js'
import { compareText } from '../core/order.js'

interface MergeOptions {
  /**
   * The generation `latest` and `snapshot` are taken at; rows of later generations are left out of both
   * (history keeps them). Default: the newest generation present.
   */
  generation?: string | null
  /**
   * Generations oldest → newest. Default: natural order (numeric runs compare as numbers, so `gen-2` <
   * `gen-10`), with null (no generation) older than any named one.
   */
  generationOrder?: readonly string[]
}

interface MergedCorpus {
  /** Every row of every input, exact duplicates removed, in a stable order. */
  history: RunRecord[]
  /** Per case configuration, the newest run at the newest generation ≤ target that has one. */
  snapshot: RunRecord[]
  /** The snapshot rows whose generation is the target: what was run in the current epoch. */
  latest: RunRecord[]
  /** Generations present, oldest → newest. */
  generations: (string | null)[]
  target: string | null
}

/**
 * Merges run corpora into three views. A *case configuration* is everything that says what was run,
 * without when: agent, agentKind, model, provider, suite, dataset, category, caseId, turn. (armId and
 * configId are not used: they hash the generation in, so they never match across generations.)
 *
 * - history: all rows, exact duplicates (same canonical JSON) dropped, ordered by generation, run date,
 *   suite, dataset, category, agent, model, caseId, turn, trial.
 * - snapshot: for each case configuration, take the newest generation ≤ target in which it ran, then within
 *   it the newest run (greatest runDateUtc); its rows are selected, one per trial (a later input wins a tie).
 *   A configuration not run in the target generation is carried forward from the newest one that ran it,
 *   whole: trials of one configuration never mix generations or runs.
 * - latest: the snapshot rows of the target generation only.
 */
export function mergeCorpora(inputs: readonly (readonly RunRecord[])[], options: MergeOptions = {}): MergedCorpus {
  const seen = new Set<string>()
  const rows: RunRecord[] = []
  for (const input of inputs) {
    for (const row of input) {
      const id = canonicalJson(row)
      if (seen.has(id)) continue
      seen.add(id)
      rows.push(row)
    }
  }
  const rank = generationRanker(rows, options.generationOrder)
  const generations = [...new Set(rows.map((r) => r.generation))].sort((a, b) => rank(a) - rank(b))
  const target = options.generation !== undefined ? options.generation : (generations.at(-1) ?? null)
  if (options.generation !== undefined && rows.length > 0 && !generations.includes(target)) {
    throw new InputError(
      `generation "${target}" is not in the corpora; present: ${generations.map((g) => g ?? '(none)').join(', ')}`,
    )
  }
  const targetRank = rows.length ? rank(target) : 0

  // For each configuration: the (generation, run date) of its newest run, then that run's rows by trial.
  const newest = new Map<string, RunRecord>()
  for (const row of rows) {
    if (rank(row.generation) > targetRank) continue
    const key = configurationKey(row)
    const best = newest.get(key)
    if (!best || compareRun(row, best, rank) >= 0) newest.set(key, row)
  }
  const selected = new Map<string, RunRecord>()
  for (const row of rows) {
    const best = newest.get(configurationKey(row))
    if (!best || row.generation !== best.generation || row.runDateUtc !== best.runDateUtc) continue
    selected.set(`${configurationKey(row)}|${row.trial}`, row)
  }

  const order = (a: RunRecord, b: RunRecord) => compareRows(a, b, rank)
  const snapshot = [...selected.values()].sort(order)
  return {
    history: [...rows].sort(order),
    snapshot,
    latest: snapshot.filter((r) => r.generation === target),
    generations,
    target,
  }
}

function configurationKey(r: RunRecord): string {
  return JSON.stringify([r.agent, r.agentKind, r.model, r.provider, r.suite, r.dataset, r.category, r.caseId, r.turn])
}

function compareRun(a: RunRecord, b: RunRecord, rank: (g: string | null) => number): number {
  return (
    rank(a.generation) - rank(b.generation) || (a.runDateUtc < b.runDateUtc ? -1 : a.runDateUtc > b.runDateUtc ? 1 : 0)
  )
}

function compareRows(a: RunRecord, b: RunRecord, rank: (g: string | null) => number): number {
  const byRun = compareRun(a, b, rank)
  if (byRun) return byRun
  const ka = [a.suite, a.dataset, a.category ?? '', a.agent, a.model ?? '', a.caseId]
  const kb = [b.suite, b.dataset, b.category ?? '', b.agent, b.model ?? '', b.caseId]
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1
  return (a.turn ?? -1) - (b.turn ?? -1) || a.trial - b.trial
}

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' })

function generationRanker(rows: readonly RunRecord[], order?: readonly string[]): (g: string | null) => number {
  if (order) {
    const index = new Map(order.map((g, i) => [g, i + 1]))
    for (const r of rows) {
      if (r.generation !== null && !index.has(r.generation)) {
        throw new InputError(`generation "${r.generation}" (case "${r.caseId}") is missing from the generation order`)
      }
    }
    return (g) => (g === null ? 0 : (index.get(g) ?? Number.POSITIVE_INFINITY))
  }
  const names = [...new Set(rows.map((r) => r.generation).filter((g): g is string => g !== null))].sort(
    (a, b) => natural.compare(a, b) || compareText(a, b),
  )
  const index = new Map(names.map((g, i) => [g, i + 1]))
  return (g) => (g === null ? 0 : (index.get(g) ?? Number.POSITIVE_INFINITY))
}
