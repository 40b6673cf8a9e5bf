import type { DataforgeMatchers } from '../matchers/types.js'
import type {} from 'expect'

/**
 * The dataforge matchers on Jest's `expect(x)`. Both Jest entries export it, so their bundled declarations
 * import this module and with it the augmentation below (a declaration-only side effect would be dropped).
 */
export interface DataforgeJestMatchers<R extends void | Promise<void>> extends DataforgeMatchers<R> {}

// Jest's `expect` (from `@jest/globals` or the injected global) takes its matcher types from the `expect` package.
declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends DataforgeJestMatchers<R> {}
}

export type { DataforgeMatchers }
