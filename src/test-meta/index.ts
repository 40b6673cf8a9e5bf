/** What a test carries to the reporter: the meta's schema, builder, writers and check, and its RunRecord. */

export { datasetDigests, newMeta, plainTestMeta } from './build.js'
export { capVerdict, failureOf } from './cap.js'
export { isExactDataforgeMeta } from './check.js'
export { putAgentFailure, putFailureOnce, putUsageOf } from './put-failure.js'
export { putAgent, putCounters, putFailure, putMetric, putUsage } from './put.js'
export { type DataforgeMeta, DataforgeMetaSchema, type MatcherRecord, parseDataforgeMeta } from './schema.js'
export { withSharedParts } from './shared-parts.js'
export { type FinishedTest, keptErrors, recordFromTest } from './to-run-record.js'
