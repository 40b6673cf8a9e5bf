let buffers: [Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64)]

/**
 * Levenshtein distance between `a` and `b`, or `max + 1` as soon as it is known to exceed `max`
 * (one row of the DP table, cut off early: cheap for the short values it compares).
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  if (a === b) return 0
  if (buffers[0].length <= b.length) buffers = [new Int32Array(2 * b.length + 2), new Int32Array(2 * b.length + 2)]
  let [prev, next] = buffers
  for (let j = 0; j <= b.length; j++) prev[j] = j
  for (let i = 1; i <= a.length; i++) {
    next[0] = i
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1
      const value = Math.min(prev[j]! + 1, next[j - 1]! + 1, prev[j - 1]! + cost)
      next[j] = value
      if (value < rowMin) rowMin = value
    }
    if (rowMin > max) return max + 1
    const swap = prev
    prev = next
    next = swap
  }
  return prev[b.length]!
}
