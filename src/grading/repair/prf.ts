import type { PRF } from '../../core/repair-score.js'

/**
 * Precision, recall and F1 from integer counts, with the empty cases decided as follows:
 *
 * - nothing to repair and nothing claimed (tp = fp = fn = 0): P = R = F1 = 1. The agent did exactly the
 *   right thing on a clean table; scoring it 0 would punish the only correct behaviour.
 * - nothing claimed but errors exist (tp = fp = 0, fn > 0): P = 1, R = 0, F1 = 0. Precision is the share of
 *   claims that are right; with no claims none is wrong, so precision is vacuously perfect. The failure shows
 *   in recall and F1, which are 0.
 * - claims but nothing to repair (tp = fn = 0, fp > 0): P = 0, R = 1, F1 = 0. Every claim is wrong; recall is
 *   vacuously perfect (no error was missed), and F1 is 0.
 * - otherwise P = tp / (tp + fp), R = tp / (tp + fn), F1 = 2tp / (2tp + fp + fn) (the harmonic mean of P and R).
 */
export function prf(tp: number, fp: number, fn: number): PRF {
  checkCount('tp', tp)
  checkCount('fp', fp)
  checkCount('fn', fn)
  const claimed = tp + fp
  const actual = tp + fn
  if (claimed === 0 && actual === 0) return { tp, fp, fn, precision: 1, recall: 1, f1: 1 }
  const precision = claimed === 0 ? 1 : tp / claimed
  const recall = actual === 0 ? 1 : tp / actual
  const f1 = tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn)
  return { tp, fp, fn, precision, recall, f1 }
}

function checkCount(name: 'tp' | 'fp' | 'fn', value: number): void {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`prf: ${name} must be a non-negative integer, got ${value}`)
}

/** The one-line P/R/F1 summary of a scored repair: the matcher's verdict and the CLI's progress line. */
export function prfSummary(s: PRF): string {
  return `F1 ${s.f1.toFixed(3)} (P ${s.precision.toFixed(3)} R ${s.recall.toFixed(3)}) tp ${s.tp} fp ${s.fp} fn ${s.fn}`
}
