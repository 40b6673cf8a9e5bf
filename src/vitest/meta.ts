import type { DataforgeMeta } from '../core/test-meta.js'

export type { DataforgeMeta, MatcherRecord } from '../core/test-meta.js'

declare module '@vitest/runner' {
  interface TaskMeta {
    dataforge?: DataforgeMeta
  }
}
