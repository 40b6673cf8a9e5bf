import { createRequire } from 'node:module'
import type * as Zod from 'zod'

const requireZod = createRequire(import.meta.url)
let loaded: typeof Zod.z | undefined

/**
 * zod, loaded on the first conformance spec or rules check. The conformance matcher is registered in every
 * Vitest worker (setup entry), and a static import would make each worker load zod (~40 ms) whether a
 * test checks a distribution or not.
 */
export function zod(): typeof Zod.z {
  loaded ??= (requireZod('zod') as typeof Zod).z
  return loaded
}
