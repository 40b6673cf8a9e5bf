/** Float noise allowed by default: one part in a billion, or 1e-9 absolute near zero. */
export const DEFAULT_TOLERANCE = 1e-9

/** True when |got − expected| ≤ max(tol, relTol·|expected|). NaN and infinities never pass. */
export function withinTolerance(got: number, expected: number, tol: number, relTol: number): boolean {
  if (!Number.isFinite(got) || !Number.isFinite(expected)) return false
  return Math.abs(got - expected) <= Math.max(tol, relTol * Math.abs(expected))
}

/** "±1e-9" style suffix for details; empty when the comparison is exact. */
export function describeTolerance(expected: number, tol: number, relTol: number): string {
  const allowed = Math.max(tol, relTol * Math.abs(expected))
  return allowed > 0 ? ` (±${Number(allowed.toPrecision(3))})` : ''
}
