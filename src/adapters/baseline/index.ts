export { baselineAgent, createBaselineAgent } from './agent.js'
export type { DependencyOptions } from './dependencies.js'
export type { TypoOptions } from './typos.js'
