import type { DataforgeMeta } from '../test-meta/schema.js'

export type { DataforgeMeta, MatcherRecord } from '../test-meta/schema.js'

declare module '@vitest/runner' {
  interface TaskMeta {
    dataforge?: DataforgeMeta
  }
}
