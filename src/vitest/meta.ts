import type { RepairScore } from '../core/repair-score.js'
import type { Usage } from '../core/schemas.js'

/** One matcher's verdict, as stored on the test. */
export interface MatcherRecord {
  matcher: string
  passed: boolean
  /** True when the assertion was negated with `.not`. */
  negated: boolean
  /** One-line summary, also annotated on the test. */
  summary: string
  /** Score in [0, 1] where the grader has one (F1 for repair). */
  score?: number
  /** Full repair score for `toRepairCells`. */
  repair?: RepairScore
  /** Run failure noticed by the matcher (e.g. a parse failure returned by a model adapter). */
  failure?: { kind: string; message: string }
}

/** What dataforge-evals stores on `task.meta.dataforge` for the reporter to read in the main process. */
export interface DataforgeMeta {
  caseId: string
  suite: string
  dataset: string
  datasetSha256: { dirty: string; clean: string } | null
  agent: string
  agentKind: string
  model: string | null
  provider: string | null
  category: string | null
  tags: string[]
  trial: number
  trials: number
  seed: number
  turn: number | null
  generation: string | null
  matchers: MatcherRecord[]
  metrics: Record<string, number>
  usage: Usage | null
  steps: number | null
  /** Known failure kind (timeout, rate_limited…) when the agent failed before scoring. */
  failure: { kind: string; message: string } | null
  datasetInfo?: import('../core/dataset-info.js').DatasetInfo
}

declare module '@vitest/runner' {
  interface TaskMeta {
    dataforge?: DataforgeMeta
  }
}

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
