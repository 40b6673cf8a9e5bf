import pc from 'picocolors'
import type { RunRecord } from '../../core/run-record.js'
import { traceTarget } from './target.js'

/**
 * The run's traces, when a target is given (`otel`, else `DATAFORGE_OTEL`): after the report folder is written, so
 * an unreachable receiver costs a warning, never the report. Nothing of OpenTelemetry loads without a target.
 */
export async function exportRunTraces(
  given: string | undefined,
  records: readonly RunRecord[],
  where: { cwd: string; env: NodeJS.ProcessEnv },
  warn: (line: string) => void,
): Promise<void> {
  let target: ReturnType<typeof traceTarget>
  try {
    target = traceTarget(given, where.env, where.cwd)
  } catch {
    warn(
      `${pc.yellow('warning')}: traces not exported: DATAFORGE_OTEL (or --otel, otel) is neither a file path nor an http(s) URL`,
    )
    return
  }
  if (!target) return
  const { exportTraces } = await import('./export.js')
  const { warning } = await exportTraces(records, target)
  if (warning) warn(`${pc.yellow('warning')}: ${warning}`)
}
