/**
 * Whole counts summing to `total`, proportional to `weights` (Hamilton's largest-remainder method): each
 * entry gets the floor of its exact quota, and the seats left over go to the largest remainders. Ties in the
 * remainder go to the larger quota, then to the earlier entry, so the result is deterministic. A zero weight
 * never gets a seat.
 */
export function largestRemainder(weights: readonly number[], total: number): number[] {
  if (!Number.isInteger(total) || total < 0)
    throw new RangeError(`largestRemainder: total must be a non-negative integer, got ${total}`)
  for (const w of weights) {
    if (!(Number.isFinite(w) && w >= 0))
      throw new RangeError(`largestRemainder: weights must be finite and non-negative, got ${w}`)
  }
  const sum = weights.reduce((a, b) => a + b, 0)
  if (weights.length === 0 || sum === 0) {
    if (total === 0) return weights.map(() => 0)
    throw new RangeError('largestRemainder: cannot share a positive total among zero weights')
  }
  const quotas = weights.map((w) => (w / sum) * total)
  const counts = quotas.map((q) => Math.floor(q))
  let left = total - counts.reduce((a, b) => a + b, 0)
  const order = quotas
    .map((q, index) => ({ index, quota: q, remainder: q - Math.floor(q) }))
    .filter((e) => weights[e.index]! > 0)
    .sort((a, b) => b.remainder - a.remainder || b.quota - a.quota || a.index - b.index)
  // Floating error can leave `left` one off the exact count of positive remainders; cycling keeps the sum right.
  for (let i = 0; left > 0; i = (i + 1) % order.length, left--) counts[order[i]!.index]! += 1
  return counts
}
