/**
 * Whether a run scored: it reached a judgment (`correct`) or an F1. A run that crashed, timed out or exceeded its
 * budget has neither. The gates (`nothingScored`) and the paired comparisons (`compare-units.ts`) both ask this.
 */
export function scored(r: { correct: boolean | null; f1: number | null }): boolean {
  return r.correct !== null || r.f1 !== null
}
