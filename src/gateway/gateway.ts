import { trialLabel } from '../core/trial-label.js'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { usageOfCall } from './accounting.js'
import { realClock } from './clock.js'
import { redactSecrets, secretMatcher } from './redact.js'
import { StreamRedactor } from './stream-redact.js'
import { InputError } from '../core/errors.js'
import type { FailureKind } from '../core/schemas.js'
import type { LlmAccess } from '../core/llm.js'
import { addUsageInPlace, emptyUsage } from '../core/usage.js'
import { ConnectionGuard, type ConnectionLimits, defaultConnectionLimits } from './connections.js'
import { type CassetteEntry, type CassetteKeyParts, CassetteStore, cassetteKey } from './cassette.js'
import { errorBody, GatewayError } from './errors.js'
import { DEFAULT_FORWARD, type ForwardOptions, forwardCall, outgoingHeaders, type UpstreamAnswer } from './forward.js'
import type { ModelPrice } from './prices.js'
import { type ParsedCall, parseCall } from './protocol.js'
import { eventData, SseSplitter } from './sse.js'
import { tokenOf, TokenRegistry } from './tokens.js'
import { type CallInFlight, DEFAULT_TRIAL_CONCURRENCY, TrialCalls } from './trial-calls.js'
import type { CallTrace, TrialLedger, TrialSpec, Upstream } from './types.js'
import { forgetLedger, registerLedger } from './agent-tools.js'
import { answerOfJson, StreamAnswer, type TranscriptAnswer, transcriptCall } from './transcript-capture.js'
import { type CallUsage, StreamUsage, usageOfJson } from './usage.js'

interface GatewayLimits extends ConnectionLimits {
  /** Calls one trial may have going upstream (or replaying) at once; more wait their turn (default 8). */
  trialConcurrency: number
}

export type GatewayOptions = Partial<ForwardOptions> & Partial<GatewayLimits>

interface TrialState {
  label: string
  spec: TrialSpec
  /** The gateway's forwarding options with the trial's own policy over them. */
  forward: ForwardOptions
  ledger: TrialLedger
  store: CassetteStore | null
  calls: TrialCalls
  open: boolean
}

/** One trial's registration: its access for the agent, its ledger, and `finish()` which retires its token. */
export interface GatewayTrial {
  readonly llm: LlmAccess
  /** The upstream as records show it (`Upstream.label`). */
  readonly upstreamLabel: string
  readonly ledger: TrialLedger
  /**
   * Cancels the calls still in flight (their upstream requests are aborted) and puts them on the ledger: a call
   * already sent counts as a call, with the tokens its stream reported so far. Returns how many were cancelled.
   */
  cancelInFlight(): number
  /** Cancels the calls in flight, retires the token (later calls get 401) and returns what the gateway saw. Idempotent. */
  finish(): TrialLedger
}

/** A token for an agent process: its environment holds it; it stands for whichever trial the process serves. */
export interface ProcessLease {
  readonly token: string
  /** Binds the lease to the trial whose `ctx.llm` this is, until the returned function is called. */
  bind(llm: LlmAccess | undefined): () => void
  close(): void
}

export interface Gateway {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  openTrial(spec: TrialSpec): GatewayTrial
  lease(): ProcessLease
  close(): Promise<void>
}

const MAX_BODY_BYTES = 32 * 2 ** 20

/** Starts a gateway on 127.0.0.1, on a port the system picks. */
export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const { trialConcurrency = DEFAULT_TRIAL_CONCURRENCY, maxConnections, trialConnections, ...forward } = options
  const opts: ForwardOptions = {
    ...DEFAULT_FORWARD,
    clock: realClock,
    random: Math.random,
    log: (line) => process.stderr.write(`${line}\n`),
    ...forward,
  }
  const defaults = defaultConnectionLimits()
  const connections = new ConnectionGuard<TrialState>({
    maxConnections: maxConnections ?? defaults.maxConnections,
    trialConnections: trialConnections ?? defaults.trialConnections,
  })
  const registry = new TokenRegistry<TrialState>()
  const byToken = new Map<string, TrialState>()
  const server = createServer((req, res) => {
    void handle(req, res).catch((error) => {
      if (!res.headersSent)
        sendError(
          res,
          error instanceof GatewayError
            ? error
            : new GatewayError(500, 'gateway_error', `gateway: ${(error as Error).message}`, null),
        )
      else res.destroy()
    })
  })
  server.keepAliveTimeout = 30_000
  // Like the listening socket (see listen): an in-process client's idle keep-alive connection held the process
  // 28 s after its last call. A client waiting on an answer keeps its own end referenced meanwhile.
  server.on('connection', (socket) => {
    socket.unref()
    connections.onConnection(socket)
  })
  await listen(server)
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now()
    let trial: TrialState | null = null
    let call: ParsedCall | null = null
    let entry: CallInFlight | null = null
    let releaseSlot: (() => void) | undefined
    try {
      trial = registry.resolve(tokenOf(req.headers))
      const text = await readBody(req)
      // After the body: a refused client reads its 429 instead of a reset while it is still sending.
      connections.onRequest(req.socket, trial, (listener) => res.once('close', listener))
      if (!trial.open)
        throw new GatewayError(401, 'trial_finished', `${trial.label} finished while its call was being sent`, null)
      call = parseCall(req.method ?? 'GET', req.url ?? '/', text)
      entry = trial.calls.admit(
        trial.spec.budget,
        trial.ledger.usage,
        call,
        text.length,
        priceOf(trial.spec.upstream, call.model),
        trial.label,
        started,
      )
      const { abort } = entry
      res.once('close', () => {
        if (!res.writableFinished) abort.abort()
      })
      const slot = trial.calls.slot(entry, trial.label)
      releaseSlot = typeof slot === 'function' ? slot : await slot
      await serve(trial, call, entry, req, res, started)
    } catch (caught) {
      const error =
        caught instanceof GatewayError
          ? caught
          : caught instanceof InputError
            ? new GatewayError(500, 'cache_corrupt', caught.message, 'exception')
            : caught
      if (!(error instanceof GatewayError)) throw error
      // A call its trial's end cancelled is on the ledger already: the agent gets a closed connection.
      if (entry?.settled) {
        res.destroy()
        return
      }
      if (trial && error.kind && trial.open)
        record(
          trial,
          entry,
          traceOf(call, 'refused', error.status, null, started, error.message),
          emptyUsage(),
          error,
          call,
        )
      if (error.status === 499) res.destroy()
      else if (!res.headersSent) sendError(res, error)
      else res.destroy()
    } finally {
      releaseSlot?.()
      if (trial && entry) trial.calls.end(entry)
    }
  }

  async function serve(
    trial: TrialState,
    call: ParsedCall,
    entry: CallInFlight,
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
  ): Promise<void> {
    const { spec } = trial
    const mode = spec.cache.mode
    const headers = outgoingHeaders(spec.upstream, call, req.headers)
    const parts: CassetteKeyParts = {
      upstream: spec.upstream.id,
      method: call.method,
      path: call.path,
      body: call.body,
      trial: spec.trial,
      seed: spec.seed,
      // Left out when empty, so a call sent with the defaults keeps the key it had before headers were keyed.
      ...(Object.keys(headers.keyed).length > 0 ? { headers: headers.keyed } : {}),
    }
    const key = trial.store ? cassetteKey(parts) : null
    // The built-in agents name the recording their answer came from.
    if (key) res.setHeader('x-dataforge-cache-key', key)
    if (trial.store && key && (mode === 'replay' || mode === 'auto')) {
      const recorded = await trial.store.read(key)
      if (recorded) {
        entry.sent = true
        const { usage, answer } = replay(recorded, res)
        account(trial, entry, usage, true, recorded.response.status, null, answer)
        return
      }
      if (mode === 'replay') {
        throw new GatewayError(
          404,
          'cache_miss',
          `no recorded answer for ${trial.label} (${call.method} /v1${call.path}, key ${key}) in ${trial.store.dir}; record it first with cache mode record or auto`,
          'cache_miss',
        )
      }
    }
    if (!spec.upstream.apiKey && spec.upstream.keyEnv && spec.upstream.provider !== 'openai-compatible') {
      throw new GatewayError(
        500,
        'no_key',
        `${trial.label}: no key for ${spec.upstream.id} (set ${spec.upstream.keyEnv}); a pure replay needs none`,
        'provider_error',
      )
    }
    const { abort } = entry
    entry.sent = true
    const { response, release } = await forwardCall(
      spec.upstream,
      call,
      headers.sent,
      abort.signal,
      trial.forward,
      trial.label,
    )
    try {
      const secrets = spec.upstream.apiKey ? [spec.upstream.apiKey] : []
      const contentType = response.header('content-type') ?? ''
      if (response.ok && contentType.includes('text/event-stream')) {
        let relayed: Awaited<ReturnType<typeof relayStream>>
        try {
          relayed = await relayStream(response, res, entry, secrets)
        } catch (error) {
          // Headers are sent: the agent sees a cut stream; the trial records why.
          if (abort.signal.aborted)
            throw new GatewayError(499, 'aborted', `${trial.label}: the agent closed the connection`, null)
          throw new GatewayError(
            502,
            'upstream_broke',
            `${trial.label}: the stream from ${spec.upstream.id} broke off (${(error as Error).message})`,
            'provider_error',
          )
        }
        const { events, usage, unreadable, problem, answer } = relayed
        if (!account(trial, entry, usage, false, response.status, null, answer)) return
        if (unreadable > 0 || problem) {
          // Not recorded: a replay would hand on the broken answer as if it were the model's.
          const what = problem
            ? `answered ${call.path} with a stream that ${problem}`
            : `streamed ${unreadable} event(s) whose data is not JSON`
          trial.ledger.failure ??= { kind: 'provider_error', message: `${trial.label}: ${spec.upstream.id} ${what}` }
        } else if (trial.store && key && (mode === 'record' || mode === 'auto')) {
          // The stream ends only once it is recorded (see the JSON case below).
          await trial.store.write({
            version: 1,
            kind: 'gateway',
            key,
            request: parts,
            response: { status: response.status, contentType: 'text/event-stream', events },
          })
        }
        res.end()
        return
      }
      const raw = redactSecrets(await response.text(), secrets)
      let json: unknown
      try {
        json = raw === '' ? null : JSON.parse(raw)
      } catch {
        if (response.ok) {
          throw new GatewayError(
            502,
            'upstream_garbage',
            `${trial.label}: ${spec.upstream.id} answered HTTP ${response.status} with a body that is not JSON (${raw.length} characters)`,
            'provider_error',
          )
        }
      }
      if (!response.ok) {
        const message = `${trial.label}: ${spec.upstream.id} answered HTTP ${response.status}${errorCodeOf(json)}`
        res.writeHead(response.status, { 'content-type': 'application/json', 'x-should-retry': 'false' })
        res.end(
          json === undefined ? errorBody(new GatewayError(response.status, 'upstream_error', message, null)) : raw,
        )
        record(trial, entry, traceOf(call, 'live', response.status, null, started, message), emptyUsage(), {
          kind: 'provider_error',
          message,
        })
        return
      }
      if (call.protocol !== 'other' && !isModelAnswer(call.protocol, json)) {
        throw new GatewayError(
          502,
          'upstream_garbage',
          `${trial.label}: ${spec.upstream.id} answered ${call.path} with JSON that is not ${ANSWER_SHAPES[call.protocol]}`,
          'provider_error',
        )
      }
      // Recorded before the agent has the answer: a trial that ends right after its last call leaves a complete cassette.
      if (trial.store && key && (mode === 'record' || mode === 'auto')) {
        await trial.store.write({
          version: 1,
          kind: 'gateway',
          key,
          request: parts,
          response: { status: response.status, contentType: 'application/json', json },
        })
      }
      if (!account(trial, entry, usageOfJson(json), false, response.status, null, answerOfJson(json))) return
      res.writeHead(response.status, { 'content-type': 'application/json', 'x-dataforge-cache': 'live' })
      res.end(raw)
    } finally {
      release()
    }
  }

  /** Puts an answered (or cancelled) call on the ledger, once; false when it was accounted already (cancelled). */
  function account(
    trial: TrialState,
    entry: CallInFlight,
    usage: CallUsage,
    cached: boolean,
    status: number,
    error: string | null = null,
    answer: TranscriptAnswer | null = null,
  ): boolean {
    if (entry.settled) return false
    const { call } = entry
    const { upstream } = trial.spec
    const model = usage.model ?? call.model
    const price = priceOf(upstream, model) ?? priceOf(upstream, call.model)
    const callUsage = usageOfCall(
      { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens },
      { cached, quotaPerDay: upstream.quotaPerDay, ...(price ? { price } : {}) },
    )
    record(
      trial,
      entry,
      traceOf(call, cached ? 'hit' : 'live', status, usage, entry.started, error, model),
      callUsage,
      undefined,
      call,
      answer,
    )
    return true
  }

  function record(
    trial: TrialState,
    entry: CallInFlight | null,
    trace: CallTrace,
    usage: ReturnType<typeof emptyUsage>,
    failure?: { kind: FailureKind | null; message: string },
    call: ParsedCall | null = entry?.call ?? null,
    answer: TranscriptAnswer | null = null,
  ): void {
    if (entry) entry.settled = true
    addUsageInPlace(trial.ledger.usage, usage)
    trial.ledger.callUsage.push(usage)
    trial.ledger.transcript.push(transcriptCall(trial.ledger.calls.length, trace, call, answer))
    trial.ledger.calls.push(trace)
    if (failure?.kind) trial.ledger.failure ??= { kind: failure.kind, message: failure.message }
  }

  function cancelInFlight(trial: TrialState): number {
    return trial.calls.cancelAll((entry) => {
      if (entry.sent) {
        const message = `cancelled: ${trial.label} ended while this call was in flight; the gateway aborted it upstream`
        account(
          trial,
          entry,
          entry.partial?.result() ?? { model: null, promptTokens: 0, completionTokens: 0, reported: false },
          false,
          499,
          message,
        )
      } else {
        const message = `cancelled: ${trial.label} ended while this call waited for a slot; it was not sent`
        record(trial, entry, traceOf(entry.call, 'refused', 499, null, entry.started, message), emptyUsage())
      }
    })
  }

  return {
    url,
    openTrial(spec: TrialSpec): GatewayTrial {
      const label = `case "${spec.caseId}" ${trialLabel(spec.trial)} (seed ${spec.seed})`
      const secrets = spec.upstream.apiKey ? [spec.upstream.apiKey] : []
      const state: TrialState = {
        label,
        spec,
        forward: withPolicy(opts, spec.policy),
        ledger: { usage: emptyUsage(), calls: [], callUsage: [], failure: null, transcript: [], agentTools: [], label },
        store: spec.cache.mode === 'off' ? null : new CassetteStore(spec.cache.dir, secrets),
        calls: new TrialCalls(trialConcurrency),
        open: true,
      }
      const token = registry.issueTrial(state)
      byToken.set(token, state)
      registerLedger(token, state.ledger)
      const llm: LlmAccess = {
        baseURL: `${url}/v1`,
        apiKey: token,
        anthropicBaseURL: url,
        fetch: gatewayFetch(url, token),
        upstream: spec.upstream.id,
      }
      return {
        llm,
        upstreamLabel: spec.upstream.label,
        ledger: state.ledger,
        cancelInFlight: () => cancelInFlight(state),
        finish() {
          if (state.open) {
            cancelInFlight(state)
            state.open = false
            registry.retire(token)
            byToken.delete(token)
            forgetLedger(token)
            connections.forget(state)
          }
          return state.ledger
        },
      }
    },
    lease(): ProcessLease {
      const token = registry.issueLease()
      return {
        token,
        bind(llm) {
          const state = llm ? byToken.get(llm.apiKey) : undefined
          return state ? registry.bindLease(token, state) : () => undefined
        },
        close: () => registry.dropLease(token),
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function priceOf(upstream: Upstream, model: string | null): ModelPrice | undefined {
  return model ? upstream.prices?.[model] : undefined
}

function withPolicy(opts: ForwardOptions, policy: TrialSpec['policy']): ForwardOptions {
  if (!policy) return opts
  const { backoff, ...rest } = policy
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Partial<ForwardOptions>
  return { ...opts, ...defined, backoff: { ...opts.backoff, ...backoff } }
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      server.unref()
      resolve()
    })
  })
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(
          new GatewayError(
            413,
            'body_too_large',
            `the request body is over ${MAX_BODY_BYTES / 2 ** 20} MB`,
            'invalid_request',
          ),
        )
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function sendError(res: ServerResponse, error: GatewayError): void {
  res.writeHead(error.status, { 'content-type': 'application/json', 'x-should-retry': 'false', ...error.headers })
  res.end(errorBody(error))
}

/** Forwards a stream event by event as each completes, reading usage on the way; returns the events for the cassette. */
async function relayStream(
  response: UpstreamAnswer,
  res: ServerResponse,
  entry: CallInFlight,
  secrets: readonly string[],
): Promise<{
  events: string[]
  usage: CallUsage
  unreadable: number
  problem: string | null
  answer: TranscriptAnswer | null
}> {
  res.writeHead(response.status, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-dataforge-cache': 'live',
  })
  res.flushHeaders()
  const splitter = new SseSplitter()
  const usage = new StreamUsage(entry.call.protocol)
  entry.partial = usage
  const answer = new StreamAnswer()
  const events: string[] = []
  const decoder = new TextDecoder()
  const redactor = secrets.length > 0 ? new StreamRedactor(secretMatcher(secrets)) : null
  const send = (event: string) => {
    events.push(event)
    res.write(event)
    const data = eventData(event)
    if (data !== null) {
      usage.onData(data)
      answer.onData(data)
    }
  }
  const onEvent = (raw: string) => {
    if (!redactor) send(raw)
    else for (const event of redactor.push(raw)) send(event)
  }
  for await (const value of response.chunks()) {
    for (const event of splitter.push(decoder.decode(value, { stream: true }))) onEvent(event)
  }
  const rest = splitter.flush()
  if (rest !== null) onEvent(rest)
  if (redactor) for (const event of redactor.flush()) send(event)
  return {
    events,
    usage: usage.result(),
    unreadable: usage.unreadable,
    problem: usage.problem(),
    answer: answer.result(),
  }
}

/** Sends a recorded answer: JSON as it was, a stream as the same events in the same order, each its own write. */
function replay(entry: CassetteEntry, res: ServerResponse): { usage: CallUsage; answer: TranscriptAnswer | null } {
  const { response } = entry
  if (response.events) {
    res.writeHead(response.status, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-dataforge-cache': 'hit',
    })
    const usage = new StreamUsage('other')
    const answer = new StreamAnswer()
    for (const event of response.events) {
      res.write(event)
      const data = eventData(event)
      if (data !== null) {
        usage.onData(data)
        answer.onData(data)
      }
    }
    res.end()
    return { usage: usage.result(), answer: answer.result() }
  }
  res.writeHead(response.status, {
    'content-type': response.contentType || 'application/json',
    'x-dataforge-cache': 'hit',
  })
  res.end(JSON.stringify(response.json))
  return { usage: usageOfJson(response.json), answer: answerOfJson(response.json) }
}

/** What a model answer of each protocol must hold, as the error names it. */
const ANSWER_SHAPES: Record<Exclude<ParsedCall['protocol'], 'other'>, string> = {
  'openai-chat': 'a chat completion (no choices)',
  'anthropic-messages': 'a message (no content)',
  'openai-responses': 'a response (no output)',
}

function isModelAnswer(protocol: ParsedCall['protocol'], json: unknown): boolean {
  if (!json || typeof json !== 'object') return false
  const root = json as Record<string, unknown>
  const list = protocol === 'openai-chat' ? 'choices' : protocol === 'openai-responses' ? 'output' : 'content'
  return Array.isArray(root[list])
}

function errorCodeOf(json: unknown): string {
  const error = json && typeof json === 'object' ? (json as Record<string, unknown>)['error'] : undefined
  const code =
    error && typeof error === 'object'
      ? ((error as Record<string, unknown>)['code'] ?? (error as Record<string, unknown>)['type'])
      : undefined
  return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? ` (${code})` : ''
}

function traceOf(
  call: ParsedCall | null,
  cache: CallTrace['cache'],
  status: number,
  usage: CallUsage | null,
  started: number,
  error: string | null,
  model?: string | null,
): CallTrace {
  return {
    protocol: call?.protocol ?? 'other',
    path: call ? call.path.replace(/\?.*$/, '') : '',
    model: model ?? call?.model ?? null,
    stream: call?.stream ?? false,
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
    latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
    cache,
    status,
    error,
    // `started` is on the performance clock; the epoch time is for traces (docs/tracing.md).
    startedAtMs: Math.round((performance.timeOrigin + started) * 1000) / 1000,
  }
}

/**
 * A fetch for SDKs that take one: any request whose path starts `/v1/` (or, for a base URL without it, the whole
 * path) goes to the gateway, with this trial's token in place of whatever key the SDK holds.
 */
function gatewayFetch(gatewayUrl: string, token: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    const original = new URL(request.url)
    const at = original.pathname.indexOf('/v1/')
    const path = at >= 0 ? original.pathname.slice(at) : `/v1${original.pathname}`
    const headers = new Headers(request.headers)
    headers.delete('x-api-key')
    headers.set('authorization', `Bearer ${token}`)
    const body = request.body ? await request.arrayBuffer() : undefined
    return fetch(`${gatewayUrl}${path}${original.search}`, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
    })
  }) as typeof fetch
}
