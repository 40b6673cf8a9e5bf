import { scored } from '../core/scored.js'
import { mean } from '../stats/quantile.js'
import type { UnitKind } from '../stats/units.js'

/** What the gate reads of one run: pass (1 correct, else 0), F1 (0 for a run that did not score) and whether it scored. */
interface Trial {
  /** The trial it belongs to, and its turn in a conversation (null otherwise). */
  trial: number
  turn: number | null
  pass: number
  /** null only where the group measures no F1, or for a run that scored without one. */
  f1: number | null
  scored: boolean
}

/** What a run needs to become a trial. */
interface TrialSource {
  trial: number
  turn: number | null
  correct: boolean | null
  f1: number | null
}

/** A run that did not score (`scored`) is, in the paired tests, not correct and, where the group measures F1, F1 0. */
export function toTrial(r: TrialSource, groupHasF1: boolean): Trial {
  const ok = scored(r)
  return {
    trial: r.trial,
    turn: r.turn,
    pass: r.correct === true ? 1 : 0,
    f1: r.f1 ?? (groupHasF1 && !ok ? 0 : null),
    scored: ok,
  }
}

/**
 * One unit on both sides. A group's unit has one part (one agent's trials per side); the overall row's unit is
 * a case with the parts of every agent that ran it, so agents are nested in their case.
 */
export interface UnitObs {
  key: string
  /** The unit as messages name it: the case id, with its data where a case split by data. */
  name: string
  kind: UnitKind
  parts: Array<{ a: Trial[]; b: Trial[] }>
}

/** A unit's per-side figures, computed once per unit (a unit is not changed once built). */
interface SideFigures {
  pass: number
  f1: number | null
}
const figures = new WeakMap<UnitObs, { a: SideFigures; b: SideFigures; exact: boolean }>()

function figuresOf(u: UnitObs): { a: SideFigures; b: SideFigures; exact: boolean } {
  let known = figures.get(u)
  if (!known) {
    known = {
      a: sideFigures(u, 'a'),
      b: sideFigures(u, 'b'),
      exact: u.parts.every((p) => deterministic(p.a) && deterministic(p.b)),
    }
    figures.set(u, known)
  }
  return known
}

function sideFigures(u: UnitObs, side: 'a' | 'b'): SideFigures {
  const passes: number[] = []
  const f1s: number[] = []
  for (const part of u.parts) {
    const trials = part[side]
    let pass = 0
    let f1 = 0
    let withF1 = 0
    for (const t of trials) {
      pass += t.pass
      if (t.f1 !== null) {
        f1 += t.f1
        withF1++
      }
    }
    passes.push(pass / trials.length)
    if (withF1) f1s.push(f1 / withF1)
  }
  return { pass: mean(passes), f1: f1s.length ? mean(f1s) : null }
}

/** A side's pass rate of a unit: the mean over its parts of each part's mean. */
export function passOf(u: UnitObs, side: 'a' | 'b'): number {
  return figuresOf(u)[side].pass
}

/** A side's F1 of a unit (the mean over parts of each part's mean F1); null when no trial of that side has one. */
export function f1Of(u: UnitObs, side: 'a' | 'b'): number | null {
  return figuresOf(u)[side].f1
}

export function trialsOf(u: UnitObs, side: 'a' | 'b'): Trial[] {
  return u.parts.flatMap((p) => p[side])
}

/**
 * Determinism needs evidence: a side is deterministic in a unit only with at least 2 trials, all identical in
 * judgment and F1 (a conversation's trial is its turns, in order: turns are not trials). A unit is exact when
 * both sides are deterministic in every part: its change holds no sampling variation.
 */
export function isExact(u: UnitObs): boolean {
  return figuresOf(u).exact
}

function deterministic(trials: readonly Trial[]): boolean {
  const byTrial = new Map<number, Trial[]>()
  for (const t of trials) {
    const runs = byTrial.get(t.trial)
    if (runs) runs.push(t)
    else byTrial.set(t.trial, [t])
  }
  if (byTrial.size < 2) return false
  const signature = (runs: Trial[]) =>
    JSON.stringify([...runs].sort((x, y) => (x.turn ?? -1) - (y.turn ?? -1)).map((t) => [t.turn, t.pass, t.f1]))
  const [first, ...rest] = [...byTrial.values()].map(signature)
  return rest.every((s) => s === first)
}

/** B did not score in a run of this unit while every run of A scored: a new failure (crash, timeout, budget). */
export function failedWhereScored(u: UnitObs): boolean {
  return u.parts.some((p) => p.a.length > 0 && p.a.every((t) => t.scored) && p.b.some((t) => !t.scored))
}

/** The units of a case across groups (agents), in first-seen order: the overall row's units. */
export function mergeByCase(
  groups: ReadonlyArray<{ caseKey: (u: UnitObs) => string; units: readonly UnitObs[] }>,
): UnitObs[] {
  const merged = new Map<string, UnitObs>()
  for (const g of groups) {
    for (const u of g.units) {
      const key = g.caseKey(u)
      const seen = merged.get(key)
      if (!seen) merged.set(key, { ...u, key, parts: [...u.parts] })
      else {
        seen.parts.push(...u.parts)
        if (u.kind === 'conversation') seen.kind = 'conversation'
      }
    }
  }
  return [...merged.values()]
}

/** `q01, q07, hospital repair` and `, … (12)` past five names. */
export function namesText(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ')
  return names.length > 5 ? `${shown}, … (${names.length})` : shown
}
