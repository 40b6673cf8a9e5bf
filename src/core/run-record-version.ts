/**
 * The RunRecord layout's version, stamped on every record: bumped when a field changes meaning (docs/run-record.md).
 * Apart from the zod schema, so the test workers that build records never load zod.
 */
export const RUN_RECORD_VERSION = 1
