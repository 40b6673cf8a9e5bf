import type { DataforgeMatchers } from '../matchers/types.js'

export type { DataforgeMatchers }

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: mirrors Vitest's own declaration
  interface Assertion<T = any> extends DataforgeMatchers<void> {}
}
