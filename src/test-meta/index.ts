/** What a test carries to the reporter: the meta's schema, builder, writers and check, and its RunRecord. */

export { datasetDigests, newMeta, plainTestMeta } from './build.js'
export { capVerdict, failureOf } from './cap.js'
export { isExactDataforgeMeta } from './check.js'
export { putAgentFailure, putFailureOnce, putUsageOf } from './put-failure.js'
export { putCounters, putFailure, putMetric, putUsage } from './put.js'
export { type DataforgeMeta, type MatcherRecord, parseDataforgeMeta } from './schema.js'
export { withSharedParts } from './shared-parts.js'
export { recordFromTest } from './to-run-record.js'
