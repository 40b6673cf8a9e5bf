export {
  baselineAgent,
  createBaselineAgent,
  BASELINE_PHASES,
  type BaselineOptions,
  type BaselinePhase,
} from './agent.js'
export type { DependencyOptions } from './dependencies.js'
export type { TypoOptions } from './typos.js'
