import type { RunRecord } from '../core/run-record.js'
import type { EvalReport } from './build.js'
import { writeFileAtomic } from './write-atomic.js'

export function renderJsonReport(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

export function renderRunsJsonl(records: readonly RunRecord[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '')
}

export interface ReportFiles {
  report: EvalReport
  markdown?: { path: string; text: string }
  jsonPath?: string
  runsPath?: string
}

/**
 * Renders everything first, then writes each file atomically: a failure while rendering writes nothing,
 * and no reader ever sees half a file. Returns what was written, by path.
 */
export async function writeReportFiles(files: ReportFiles): Promise<Map<string, string>> {
  const outputs = new Map<string, string>()
  if (files.markdown) outputs.set(files.markdown.path, files.markdown.text)
  if (files.jsonPath) outputs.set(files.jsonPath, renderJsonReport(files.report))
  if (files.runsPath) outputs.set(files.runsPath, renderRunsJsonl(files.report.records))
  return writeRendered(outputs)
}

/** Writes already-rendered files, each atomically; returns them by path. */
export async function writeRendered(outputs: Map<string, string>): Promise<Map<string, string>> {
  await Promise.all([...outputs].map(([path, text]) => writeFileAtomic(path, text)))
  return outputs
}
