import type { RunRecord } from '../core/run-record.js'
import { InputError } from '../core/errors.js'
import { passAtK, passHatK } from './pass-at-k.js'
import { compareText } from '../core/order.js'

/** What the trials of one case (one arm, dataset, case and turn) add up to. */
export interface CaseTrialStats {
  /** `armId|dataset|caseId|turn`, unique per entry. */
  key: string
  armId: string
  agent: string
  /** The arm's model (model matrices run one agent with several). */
  model: string | null
  dataset: string
  caseId: string
  turn: number | null
  /** Trials attempted (failed and skipped runs included, as in Score). */
  n: number
  /** Trials with `correct === true`. */
  passes: number
  /** pass@k for k = 1..n. */
  passAtK: Record<number, number>
  /** pass^k for k = 1..n. */
  passHatK: Record<number, number>
  /** Passed in some trials and not in others. */
  flaky: boolean
}

/** Groups records by (armId, dataset, caseId, turn), sorted by that key. */
export function caseTrialStats(records: readonly RunRecord[]): CaseTrialStats[] {
  const groups = new Map<string, { first: RunRecord; n: number; passes: number }>()
  for (const r of records) {
    const key = `${r.armId}|${r.dataset}|${r.caseId}|${r.turn ?? ''}`
    const group = groups.get(key)
    const pass = r.correct === true ? 1 : 0
    if (group) {
      group.n++
      group.passes += pass
    } else groups.set(key, { first: r, n: 1, passes: pass })
  }
  return [...groups.keys()].sort(compareText).map((key) => {
    const { first, n, passes } = groups.get(key)!
    const atK: Record<number, number> = {}
    const hatK: Record<number, number> = {}
    for (let k = 1; k <= n; k++) {
      atK[k] = passAtK(n, passes, k)
      hatK[k] = passHatK(n, passes, k)
    }
    return {
      key,
      armId: first.armId,
      agent: first.agent,
      model: first.model,
      dataset: first.dataset,
      caseId: first.caseId,
      turn: first.turn,
      n,
      passes,
      passAtK: atK,
      passHatK: hatK,
      flaky: passes > 0 && passes < n,
    }
  })
}

export function flakyCases(stats: readonly CaseTrialStats[]): CaseTrialStats[] {
  return stats.filter((s) => s.flaky)
}

export interface RepeatGateResult {
  passed: boolean
  atLeast: number
  /** Cases that passed fewer than `atLeast` of their trials (a case with fewer trials than that fails). */
  failing: CaseTrialStats[]
}

/** The per-case repeat gate: every case passes at least `atLeast` of its N trials. */
export function repeatGate(stats: readonly CaseTrialStats[], options: { atLeast: number }): RepeatGateResult {
  const { atLeast } = options
  if (!Number.isInteger(atLeast) || atLeast < 1) {
    throw new InputError(`repeat gate: atLeast must be a positive integer, got ${atLeast}`)
  }
  const failing = stats.filter((s) => s.passes < atLeast)
  return { passed: failing.length === 0, atLeast, failing }
}
