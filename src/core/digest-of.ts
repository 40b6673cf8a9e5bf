/**
 * The zod-free words of a `DatasetInfo`, apart from its schema so the report renderers and the reporter's meta
 * check load no zod: where a dataset came from, what a digest is taken over (see dataset-info.ts for the three
 * meanings of "dataset sha256") and how reports print that.
 */
export const DATASET_ORIGINS = ['synthetic', 'csv-pair', 'raha'] as const

export const DIGEST_OF = ['file-bytes', 'csv-serialization'] as const
export type DigestOf = (typeof DIGEST_OF)[number]

/** What reports print for a digest's `of` (older reports have none: '—'). */
export function digestOfLabel(dirty: DigestOf | undefined, clean: DigestOf | undefined): string {
  const label = (of: DigestOf | undefined) => (of === 'file-bytes' ? 'file bytes' : of === 'csv-serialization' ? 'CSV serialization' : '—')
  return dirty === clean ? label(dirty) : `dirty: ${label(dirty)}, clean: ${label(clean)}`
}
