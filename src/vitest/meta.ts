import type { DataforgeMeta } from '../test-meta/schema.js'

export type { DataforgeMeta, MatcherRecord } from '../test-meta/schema.js'

// Vitest's documented way to type a task's meta: TaskMeta is re-exported by `vitest` (Vitest 5 bundles its runner,
// so `@vitest/runner` is no package a user has).
declare module 'vitest' {
  interface TaskMeta {
    dataforge?: DataforgeMeta
  }
}
