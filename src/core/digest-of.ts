/**
 * The zod-free words of a `DatasetInfo`, apart from its schema so the report renderers and the reporter's meta
 * check load no zod: where a dataset came from, what a digest is taken over (see dataset-info.ts for the three
 * meanings of "dataset sha256") and how reports print that.
 */
export const DATASET_ORIGINS = ['synthetic', 'csv-pair', 'raha'] as const

export const DIGEST_OF = ['file-bytes', 'csv-serialization'] as const
export type DigestOf = (typeof DIGEST_OF)[number]

/**
 * What a report's reproducibility block says a digest is of: a `DatasetInfo`'s kinds, or, for data known only from
 * its runs' records (question suites and conversations), the canonical JSON of the tables one case asked about
 * (`tables-json`), or, where a dataset's cases had different tables, the list of those digests (`digest-list`:
 * the sha256 of the sorted distinct digests, one per line).
 */
export type ReportDigestOf = DigestOf | 'tables-json' | 'digest-list'

const DIGEST_LABELS: Record<ReportDigestOf, string> = {
  'file-bytes': 'file bytes',
  'csv-serialization': 'CSV serialization',
  'tables-json': 'tables as canonical JSON',
  'digest-list': "sorted list of the cases' table digests",
}

/** What reports print for a digest's `of` (older reports have none: '—'). */
export function digestOfLabel(dirty: ReportDigestOf | undefined, clean: ReportDigestOf | undefined): string {
  const label = (of: ReportDigestOf | undefined) => (of === undefined ? '—' : (DIGEST_LABELS[of] ?? '—'))
  return dirty === clean ? label(dirty) : `dirty: ${label(dirty)}, clean: ${label(clean)}`
}
