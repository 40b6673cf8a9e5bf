import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { RunRecord } from '../../core/run-record.js'
import { toolVersion } from '../tool-version.js'
import { type GenAiNames, type OtelApi, type ReadableSpan, runSpans } from './spans.js'
import type { TraceTarget } from './target.js'

/**
 * Sends a run's traces to their target: OTLP/JSON `ExportTraceServiceRequest` lines appended to a file (one line
 * per run), or one POST per batch to an OTLP/HTTP receiver. The OpenTelemetry packages (optional peers) load
 * here, so only a run with a target pays for them. Nothing thrown: what went wrong is the returned warning.
 */

const OTEL_PACKAGES = [
  '@opentelemetry/api@1.9.1',
  '@opentelemetry/sdk-trace-base@2.12.1',
  '@opentelemetry/resources@2.12.1',
  '@opentelemetry/otlp-transformer@0.223.1',
  '@opentelemetry/exporter-trace-otlp-http@0.223.1',
  '@opentelemetry/semantic-conventions@1.45.0',
]

/** Runs per POST: a receiver's request limit (often 4 MB) holds a few hundred runs with their calls. */
const BATCH = 200
/** Per POST, the exporter's retries with backoff included. */
const HTTP_TIMEOUT_MS = 10_000

interface TraceExportResult {
  traces: number
  spans: number
  /** One line saying what went wrong; null when every trace was written or accepted. */
  warning: string | null
}

interface Loaded {
  api: OtelApi
  names: GenAiNames
  sdk: typeof import('@opentelemetry/sdk-trace-base')
  resources: typeof import('@opentelemetry/resources')
}

async function load(): Promise<Loaded> {
  const [api, sdk, resources, conventions, stable] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions/incubating'),
    import('@opentelemetry/semantic-conventions'),
  ])
  return { api, names: { ...conventions, ATTR_ERROR_TYPE: stable.ATTR_ERROR_TYPE }, sdk, resources }
}

/** Each record's spans, one list per record (a trace each), built through the SDK's tracer. */
function buildTraces(
  loaded: Loaded,
  records: readonly RunRecord[],
  env: NodeJS.ProcessEnv = process.env,
): ReadableSpan[][] {
  const { sdk, resources, api, names } = loaded
  let current: ReadableSpan[] = []
  const collector = {
    onStart: () => undefined,
    onEnd: (span: ReadableSpan) => void current.push(span),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  }
  const resource = resources.resourceFromAttributes({
    'service.name': env['OTEL_SERVICE_NAME']?.trim() || 'dataforge-evals',
    'service.version': toolVersion(),
  })
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: [collector] })
  const tracer = provider.getTracer('dataforge-evals', toolVersion())
  return records.map((record) => {
    current = []
    runSpans(api, names, tracer, record)
    return current
  })
}

/** Loads the packages, builds a trace per record and sends them to `target`; never throws. */
export async function exportTraces(
  records: readonly RunRecord[],
  target: TraceTarget,
  opts: { timeoutMs?: number } = {},
): Promise<TraceExportResult> {
  if (records.length === 0) return { traces: 0, spans: 0, warning: null }
  let loaded: Loaded
  try {
    loaded = await load()
  } catch (error) {
    return {
      traces: 0,
      spans: 0,
      warning: `traces not exported: the OpenTelemetry packages are not installed (${messageOf(error)}); install them beside dataforge-evals: npm i -D ${OTEL_PACKAGES.join(' ')}`,
    }
  }
  try {
    const traces = buildTraces(loaded, records)
    const spans = traces.reduce((n, t) => n + t.length, 0)
    const warning =
      target.kind === 'file'
        ? await writeLines(traces, target.path)
        : await post(traces, target, opts.timeoutMs ?? HTTP_TIMEOUT_MS)
    return { traces: traces.length, spans, warning }
  } catch (error) {
    return { traces: 0, spans: 0, warning: `traces not exported: ${messageOf(error)}` }
  }
}

async function writeLines(traces: ReadableSpan[][], path: string): Promise<string | null> {
  const { JsonTraceSerializer } = await import('@opentelemetry/otlp-transformer')
  const decoder = new TextDecoder()
  const lines = traces.map((spans) => `${decoder.decode(JsonTraceSerializer.serializeRequest(spans))}\n`)
  try {
    await mkdir(dirname(path), { recursive: true })
    await appendFile(path, lines.join(''))
    return null
  } catch (error) {
    return `traces not written to ${path}: ${messageOf(error)}`
  }
}

async function post(
  traces: ReadableSpan[][],
  target: Extract<TraceTarget, { kind: 'http' }>,
  timeoutMillis: number,
): Promise<string | null> {
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
  const exporter = new OTLPTraceExporter({ url: target.url, timeoutMillis })
  const failures: string[] = []
  let sent = 0
  for (let i = 0; i < traces.length; i += BATCH) {
    const batch = traces.slice(i, i + BATCH).flat()
    const result = await new Promise<{ code: number; error?: Error }>((done) => exporter.export(batch, done))
    if (result.code === 0) sent += Math.min(BATCH, traces.length - i)
    else {
      // The exporter has retried with backoff already; the next batches would wait as long for the same answer.
      failures.push(result.error ? messageOf(result.error) : 'export failed')
      break
    }
  }
  await exporter.shutdown().catch(() => undefined)
  if (failures.length === 0) return null
  // The receiver's URL without credentials or query; the error text is the exporter's, which names neither.
  return `traces not sent to ${target.shown}: ${failures[0]!.replaceAll(target.url, target.shown)} (${traces.length - sent} of ${traces.length} traces lost; the report is written)`
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300)
}
