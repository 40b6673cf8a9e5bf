/** The files a report folder can hold, by format (write-folder.ts maps each to its file and renderer). */
export const REPORT_FORMATS = ['markdown', 'json', 'jsonl', 'html'] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]
