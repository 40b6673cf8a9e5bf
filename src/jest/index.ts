import './augment.js'

export type { DataforgeMatchers } from './augment.js'
export { dataforgeMatchers } from '../matchers/index.js'
export type { MatcherRecord } from '../vitest/meta.js'
