import type { Assertion } from 'vitest'
import type { DataforgeMatchers } from '../matchers/types.js'

export type { DataforgeMatchers }

/**
 * The dataforge matchers on Vitest's `expect(x)`. Both Vitest entries export it, so their bundled declarations
 * import this module and with it the augmentation below (a declaration-only side effect would be dropped).
 */
export interface DataforgeAssertion extends DataforgeMatchers<void> {}

/**
 * Vitest's `expect(x)` with the dataforge matchers. Its import of `vitest` also orders the declarations:
 * TypeScript merges the augmentation below into `Assertion`, which `vitest` re-exports, only when it has read
 * Vitest's declarations before this file, and a vitest.config.ts that imports the reporter reaches this file
 * before any eval file reads `vitest`.
 */
export type VitestAssertion<T = unknown> = Assertion<T> & DataforgeAssertion

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors Vitest's own declaration
  interface Assertion<T = any> extends DataforgeAssertion {}
}
