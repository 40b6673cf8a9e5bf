import { isAbsolute, resolve } from 'node:path'

/** Where a run's traces go: a file of OTLP/JSON lines, or an OTLP/HTTP receiver (`…/v1/traces`). */
export type TraceTarget = { kind: 'file'; path: string } | { kind: 'http'; url: string; shown: string }

/** The variable that turns tracing on for every front door. */
const OTEL_ENV = 'DATAFORGE_OTEL'

/**
 * The target of a reporter option, a CLI flag or `DATAFORGE_OTEL` (the first given wins): an http(s) URL is a
 * receiver's base URL (`/v1/traces` is added unless it is there), anything else a file path (relative to `cwd`).
 * Null when none is given: then nothing of OpenTelemetry loads.
 */
export function traceTarget(given: string | undefined, env: NodeJS.ProcessEnv, cwd: string): TraceTarget | null {
  const value = (given ?? env[OTEL_ENV] ?? '').trim()
  if (value === '') return null
  if (/^https?:\/\//i.test(value)) {
    const url = new URL(value)
    const base = url.pathname.replace(/\/+$/, '')
    url.pathname = base.endsWith('/v1/traces') ? base : `${base}/v1/traces`
    return { kind: 'http', url: url.href, shown: shownUrl(url) }
  }
  return { kind: 'file', path: isAbsolute(value) ? value : resolve(cwd, value) }
}

/** The URL as messages show it: no user, password or query (a token may ride in either). */
function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`
}
