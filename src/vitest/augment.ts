import type { DataforgeMatchers } from '../matchers/types.js'

export type { DataforgeMatchers }

/**
 * The dataforge matchers on Vitest's `expect(x)`. Both Vitest entries export it, so their bundled declarations
 * import this module and with it the augmentation below (a declaration-only side effect would be dropped).
 */
export interface DataforgeAssertion extends DataforgeMatchers<void> {}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors Vitest's own declaration
  interface Assertion<T = any> extends DataforgeAssertion {}
}
