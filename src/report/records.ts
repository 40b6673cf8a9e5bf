// The RunRecord builder lives in core beside its schema; this path stays for existing imports.
export * from '../core/build-run-record.js'
