/** What a test carries to the reporter: the meta's schema, builder, writers and check, and its RunRecord. */

export { datasetDigests, newMeta, plainTestMeta } from './build.js'
export { capVerdict, failureOf } from './cap.js'
export { isExactDataforgeMeta } from './check.js'
export { putAgentFailure, putFailureOnce, putUsageOf } from './put-failure.js'
export { putCounters, putFailure, putMetric, putUsage, putAgent } from './put.js'
export { type DataforgeMeta, type MatcherRecord, parseDataforgeMeta, DataforgeMetaSchema } from './schema.js'
export { recordFromTest, keptErrors, type FinishedTest } from './to-run-record.js'
