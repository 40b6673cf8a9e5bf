import type { DataforgeMatchers } from '../matchers/types.js'
import type {} from 'expect'

// Jest's `expect` (from `@jest/globals` or the injected global) takes its matcher types from the `expect` package.
declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends DataforgeMatchers<R> {}
}

export type { DataforgeMatchers }
