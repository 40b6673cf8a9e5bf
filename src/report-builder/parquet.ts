import { type BasicType, type ColumnSource, parquetWriteBuffer } from 'hyparquet-writer'
import { canonicalJson } from '../core/hash.js'
import { RUN_RECORD_VERSION, type RunRecord } from '../core/run-record.js'
import { USAGE_FIELDS } from '../core/usage.js'
import { assertWritableTarget } from '../files/write-atomic.js'
import { type ManifestUse, writeAddedFile } from './manifest.js'

type Value = string | number | bigint | boolean | null

interface ParquetColumn {
  name: string
  type: Extract<BasicType, 'STRING' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN'>
  nullable: boolean
  /** Where the value comes from in a RunRecord. */
  source: string
  get(record: RunRecord): Value
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : canonicalJson(value))

const PRF_FIELDS = ['tp', 'fp', 'fn', 'precision', 'recall', 'f1'] as const

/**
 * The flat Parquet layout of a RunRecord: nested objects become `parent_child` columns (usage_*,
 * detection_*, datasetSha256_*); lists and maps (fixes, diagnostics, perColumn, perKind, metrics,
 * warnings) become JSON strings with sorted keys. Nullable where the record field is.
 */
export const PARQUET_COLUMNS: readonly ParquetColumn[] = [
  col('recordVersion', 'INT32', false, (r) => r.recordVersion),
  col('caseId', 'STRING', false, (r) => r.caseId),
  col('turn', 'INT32', true, (r) => r.turn),
  col('suite', 'STRING', false, (r) => r.suite),
  col('dataset', 'STRING', false, (r) => r.dataset),
  col('category', 'STRING', true, (r) => r.category),
  col('agent', 'STRING', false, (r) => r.agent),
  col('agentKind', 'STRING', false, (r) => r.agentKind),
  col('model', 'STRING', true, (r) => r.model),
  col('provider', 'STRING', true, (r) => r.provider),
  col('trial', 'INT32', false, (r) => r.trial),
  col('seed', 'INT64', false, (r) => BigInt(r.seed)),
  col('generation', 'STRING', true, (r) => r.generation),
  col('status', 'STRING', false, (r) => r.status),
  col('failureKind', 'STRING', true, (r) => r.failureKind),
  col('failureMessage', 'STRING', true, (r) => r.failureMessage),
  col('correct', 'BOOLEAN', true, (r) => r.correct),
  col('completed', 'BOOLEAN', false, (r) => r.completed),
  col('validationError', 'STRING', true, (r) => r.validationError),
  col('precision', 'DOUBLE', true, (r) => r.precision),
  col('recall', 'DOUBLE', true, (r) => r.recall),
  col('f1', 'DOUBLE', true, (r) => r.f1),
  col('tp', 'INT32', true, (r) => r.tp),
  col('fp', 'INT32', true, (r) => r.fp),
  col('fn', 'INT32', true, (r) => r.fn),
  ...PRF_FIELDS.map((f) =>
    col(
      `detection_${f}`,
      f === 'tp' || f === 'fp' || f === 'fn' ? 'INT32' : 'DOUBLE',
      true,
      (r) => r.detection?.[f] ?? null,
      `detection.${f}`,
    ),
  ),
  col('diagnostics', 'STRING', true, (r) => json(r.diagnostics), 'diagnostics (JSON)'),
  col('perColumn', 'STRING', true, (r) => json(r.perColumn), 'perColumn (JSON)'),
  col('perKind', 'STRING', true, (r) => json(r.perKind), 'perKind (JSON)'),
  col('fixes', 'STRING', true, (r) => json(r.fixes), 'fixes (JSON)'),
  col('metrics', 'STRING', false, (r) => json(r.metrics), 'metrics (JSON)'),
  col('steps', 'INT32', false, (r) => r.steps),
  col('runtimeS', 'DOUBLE', false, (r) => r.runtimeS),
  col('startedAt', 'STRING', true, (r) => r.startedAt ?? null),
  ...USAGE_FIELDS.map((f) => col(`usage_${f}`, 'DOUBLE', false, (r) => r.usage[f], `usage.${f}`)),
  col('cached', 'BOOLEAN', false, (r) => r.cached),
  col('warnings', 'STRING', false, (r) => json(r.warnings), 'warnings (JSON)'),
  col('datasetSha256_dirty', 'STRING', true, (r) => r.datasetSha256?.dirty ?? null, 'datasetSha256.dirty'),
  col('datasetSha256_clean', 'STRING', true, (r) => r.datasetSha256?.clean ?? null, 'datasetSha256.clean'),
  col('agentSource', 'STRING', true, (r) => r.agentSource),
  col('agentSha256', 'STRING', true, (r) => r.agentSha256),
  col('isolated', 'BOOLEAN', true, (r) => r.isolated),
  col('llmUpstream', 'STRING', true, (r) => r.llmUpstream ?? null),
  col('usageSource', 'STRING', true, (r) => r.usageSource ?? null),
  col('llmCalls', 'STRING', false, (r) => json(r.llmCalls ?? []), 'llmCalls (JSON)'),
  col('toolCalls', 'STRING', false, (r) => json(r.toolCalls ?? []), 'toolCalls (JSON)'),
  col('transcriptId', 'STRING', true, (r) => r.transcriptId ?? null),
  col('isolation', 'STRING', true, (r) => json(r.isolation), 'isolation (JSON)'),
  col('projectCommit', 'STRING', true, (r) => r.projectCommit),
  col('configId', 'STRING', false, (r) => r.configId),
  col('armId', 'STRING', false, (r) => r.armId),
  col('runDateUtc', 'STRING', false, (r) => r.runDateUtc),
]

function col(
  name: string,
  type: ParquetColumn['type'],
  nullable: boolean,
  get: (r: RunRecord) => Value,
  source = name,
): ParquetColumn {
  return { name, type, nullable, source, get }
}

/** Encodes RunRecords as one Parquet file (Snappy, one column per `PARQUET_COLUMNS` entry); same rows, same bytes. */
export function runRecordsToParquet(records: readonly RunRecord[]): Uint8Array {
  const columnData: ColumnSource[] = PARQUET_COLUMNS.map((c) => ({
    name: c.name,
    type: c.type,
    nullable: c.nullable,
    data: records.map((r) => c.get(r)),
  }))
  const buffer = parquetWriteBuffer({
    columnData,
    createdBy: 'dataforge-evals',
    kvMetadata: [{ key: 'dataforge-evals.recordVersion', value: String(RUN_RECORD_VERSION) }],
  })
  return new Uint8Array(buffer)
}

/**
 * Writes the Parquet file, with its folder's manifest.json as one unit when the folder is a report folder or new
 * (`writeAddedFile`): a path that already holds an export is replaced together with its manifest entry, or not at
 * all. Returns its size and what became of the manifest.
 */
export async function writeRunsParquet(
  path: string,
  records: readonly RunRecord[],
): Promise<{ rows: number; bytes: number; manifest: ManifestUse; manifestPath: string }> {
  const bytes = runRecordsToParquet(records)
  await assertWritableTarget(path, `--parquet (${path})`)
  const written = await writeAddedFile(path, bytes, { rowCounts: { [path]: records.length } })
  return { rows: records.length, bytes: bytes.byteLength, ...written }
}
