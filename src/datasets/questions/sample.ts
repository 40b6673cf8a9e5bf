import { Random } from '../../core/random.js'

/** A seeded sample of `n` items, kept in their original order (the same seed draws the same sample). */
export function seededSample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (n >= items.length) return [...items]
  const keep = new Set(new Random(seed).shuffle(items.map((_, i) => i)).slice(0, n))
  return items.filter((_, i) => keep.has(i))
}
