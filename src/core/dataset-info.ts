import { z } from 'zod'

/**
 * What a dataset sha256 is taken over, named because it is not always the same thing:
 * - `file-bytes`: the file exactly as read from disk (CSV pairs, Raha-layout and canonical sets);
 * - `csv-serialization`: the UTF-8 bytes of `toCsv(table)` (LF endings, RFC 4180 quoting), for tables that
 *   never were a file (synthetic data, `createRepairTask`).
 * (Conversations hash their tables differently again: `RunRecord.datasetSha256` there is the sha256 of the
 * canonical JSON of the normalized tables, the same value as dirty and clean.)
 */
export const DigestOfSchema = z.enum(['file-bytes', 'csv-serialization'])
export type DigestOf = z.infer<typeof DigestOfSchema>

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
  origin: z.enum(['synthetic', 'csv-pair', 'raha']),
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
