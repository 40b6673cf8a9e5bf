/**
 * Holm's step-down adjustment: the p-values of a family of tests, each raised so that rejecting where the
 * adjusted p is below α keeps the chance of any false rejection in the family at most α, whatever the
 * dependence between the tests. Sorted ascending, p_(i) becomes max over j ≤ i of min(1, (m − j + 1) · p_(j)).
 * The returned array is in the input's order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1])
  const adjusted = new Array<number>(m)
  let running = 0
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p))
    adjusted[i] = running
  })
  return adjusted
}
