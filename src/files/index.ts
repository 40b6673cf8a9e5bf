/** Durable I/O: atomic writes, a folder's own files, the folder lock, output paths, the one reader of run files. */

export { type FolderLock, lockFolder } from './folder-lock.js'
export { fsProblem, isEnvironmentError, makeFolder, writeFailure } from './fs-errors.js'
export { realPathInside } from './inside-folder.js'
export {
  checkReportOutputs,
  cliReportOutputs,
  LEGACY_RUNS_FILE,
  LEGACY_STEM,
  type PlannedOutput,
  type ReportPaths,
  stemFiles,
  stemOf,
  timestampedStem,
} from './output-paths.js'
export { checkOwnFile, openOwnFile } from './own-file.js'
export { parseRunRecords, parseRunRecordText, readRunRecords, resolveRunsFile } from './read-runs.js'
export { runRowsOf } from './run-rows.js'
export {
  assertWritableTarget,
  commitFiles,
  removeStaleTemps,
  stageFiles,
  writeFileAtomic,
  writeFileAtomicSync,
} from './write-atomic.js'
