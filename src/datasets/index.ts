/** Where tasks come from: seeded synthetic corruption, CSV pairs, the Raha sets, question suites, WTQ. */
export {
  CANONICAL_DATASETS,
  CANONICAL_UPSTREAM,
  DEFAULT_DATASETS_BASE_URL,
  type CanonicalDataset,
  type CanonicalFile,
  type CanonicalName,
} from './canonical.js'
export { parseCsvStrict, readCsvTable, toCsv, writeCsvChunks } from './csv.js'
export { csvDigest, csvDigestPair } from './csv-digest.js'
export {
  type DabenchSummary,
  dabenchSummaries,
  type DabenchScores,
  type DabenchRate,
  isDabenchFact,
} from './dabench/scores.js'
export { type DatasetListing, listDatasets } from './list.js'
export { type DatasetRequest, type LoadedDataset, loadDataset } from './load.js'
export { detectIdColumns } from './pair.js'
export { DatasetDownloadError, type PullOptions, pullDataset } from './pull.js'
export { loadQaSuite, QA_SUITES, loadQaSuiteSync } from './questions/index.js'
export {
  turnsOf,
  type QaCase,
  type QaSuite,
  type QaSuiteOptions,
  turnNumber,
  turnId,
  BUILT_IN_QA_SUITES,
} from './questions/types.js'
export { casesOfData, expectedAnswerOf } from './questions/expected.js'
export { resolveDataDir } from './raha.js'
export { SYNTHETIC_COLUMNS } from './synthetic/clean-table.js'
export { CORRUPTION_KINDS, type CorruptionKind, NULL_PLACEHOLDERS } from './synthetic/corruptions.js'
export {
  SYNTHETIC_DEFAULTS,
  SYNTHETIC_GENERATOR_VERSION,
  SYNTHETIC_MAX_ROWS,
  SYNTHETIC_SOURCE,
  type SyntheticOptions,
  generateSynthetic,
} from './synthetic/generate.js'
