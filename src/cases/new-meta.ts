import type { DataforgeMeta } from '../core/test-meta.js'

// Type-only import: the schema (and zod) stays out of the test workers' module graph.
export type { DataforgeMeta, MatcherRecord } from '../core/test-meta.js'

/** A fresh meta: the identity given, neutral defaults for the rest, and nothing recorded yet. */
export function newMeta(identity: Pick<DataforgeMeta, 'caseId' | 'suite' | 'dataset' | 'agent'> & Partial<DataforgeMeta>): DataforgeMeta {
  return {
    datasetSha256: null,
    agentKind: 'custom',
    model: null,
    provider: null,
    category: null,
    tags: [],
    trial: 0,
    trials: 1,
    seed: 0,
    turn: null,
    generation: null,
    matchers: [],
    metrics: {},
    usage: null,
    steps: null,
    failure: null,
    ...identity,
  }
}

/** The meta of a plain test that used a matcher: the test's full name is the case, its file's stem the suite. */
export function plainTestMeta(fullName: string, fileName: string | undefined): DataforgeMeta {
  const suite = (fileName ?? 'tests').replace(/\.(eval|test|spec)\.[cm]?[jt]sx?$/, '')
  return newMeta({ caseId: fullName, suite, dataset: suite, agent: 'unspecified' })
}
