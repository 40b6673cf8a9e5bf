import { z } from 'zod'
import { DATASET_ORIGINS, DIGEST_OF, type DigestOf, digestOfLabel } from './digest-of.js'

/**
 * A "dataset sha256" is taken over one of three things, each named for what it is:
 * - `file-bytes`: the file exactly as read from disk (CSV pairs, Raha-layout and canonical sets);
 * - `csv-serialization`: the UTF-8 bytes of `toCsv(table)` (LF endings, RFC 4180 quoting), for tables that
 *   never were a file (synthetic data, `createRepairTask`);
 * - the tables' canonical JSON (`tablesJsonSha256` in hash.ts), for question cases and conversations, which have no
 *   dirty/clean pair and no `DatasetInfo`: their `RunRecord.datasetSha256` holds it as both dirty and clean.
 * `DigestOf` names the first two where a `DatasetInfo` records a digest.
 */
export const DigestOfSchema = z.enum(DIGEST_OF)
export { type DigestOf, digestOfLabel }

export const FileDigestSchema = z.object({
  /** Where the bytes came from; absent for generated data. */
  path: z.string().optional(),
  sha256: z.string(),
  bytes: z.number().int().nonnegative(),
  /** What `sha256` and `bytes` are taken over (absent in reports written before it was recorded). */
  of: DigestOfSchema.optional(),
})
export type FileDigest = z.infer<typeof FileDigestSchema>

/** What a report says about the data a run used. */
export const DatasetInfoSchema = z.object({
  /** Stable id used in reports and groups, e.g. `hospital` or `synthetic`. */
  id: z.string(),
  /** `synthetic`, `csv-pair` or `raha`. */
  origin: z.enum(DATASET_ORIGINS),
  /** Human description of the source (upstream repo and revision, file paths, generator version). */
  source: z.string(),
  rows: z.number().int().nonnegative(),
  columns: z.number().int().nonnegative(),
  columnNames: z.array(z.string()),
  /** Number of cells whose dirty and clean strings differ. */
  dirtyCells: z.number().int().nonnegative(),
  /** Corruption kinds present, where the generator recorded them. */
  corruptionKinds: z.array(z.string()).optional(),
  /** Id columns that never hold errors (`index`, `tuple_id`). */
  idColumns: z.array(z.string()),
  /** For generated data: the seed that made this exact table. */
  seed: z.number().int().optional(),
  /** For generated data: the generator options that, with the seed, reproduce it. */
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  dirty: FileDigestSchema,
  clean: FileDigestSchema,
})
export type DatasetInfo = z.infer<typeof DatasetInfoSchema>
