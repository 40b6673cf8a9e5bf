import { InputError } from '../core/errors.js'

/**
 * Unbiased pass@k from n trials with c passes: the chance that at least one of k trials drawn without
 * replacement passes, 1 − C(n−c, k)/C(n, k), computed as a product to stay exact for large n.
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts('passAtK', n, c, k)
  if (n - c < k) return 1
  let allFail = 1
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i
  return 1 - allFail
}

/** pass^k from n trials with c passes: the chance that all k trials drawn without replacement pass, C(c, k)/C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts('passHatK', n, c, k)
  if (c < k) return 0
  let allPass = 1
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i)
  return allPass
}

function checkCounts(name: string, n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || c < 0 || c > n || k < 1 || k > n) {
    throw new InputError(`${name}: need integers 0 ≤ c ≤ n and 1 ≤ k ≤ n, got n=${n} c=${c} k=${k}`)
  }
}
