import { type ChildProcess, spawn } from 'node:child_process'
import { AgentFailure } from '../core/errors.js'
import { realClearTimeout, realSetTimeout } from '../core/real-timers.js'
import type { FailureKind } from '../core/schemas.js'
import { type AgentMessage, AgentMessageSchema, type HostMessage } from './protocol.js'
import { truncate } from '../core/text.js'
import { formatSeconds } from '../stats/number-format.js'
import { terminalOutput } from '../core/escape-text.js'
import { refuseInspectorSignal } from './harness-signals.js'
import { agentStdio } from './inherited-fds.js'
import type { StderrRelay, StderrStream } from './stderr-relay.js'
import { StringDecoder } from 'node:string_decoder'

export interface Launch {
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** Where the agent's stderr goes (default: this process's stderr). */
  log?: (chunk: string) => void
  /** Relays stderr line by line, prefixed with the agent's name and capped (isolated agents); else `log` gets it as it comes. */
  stderr?: StderrRelay
  /** Start it in a process group of its own (signals to the harness's group miss it; the harness ends the whole group). */
  detached?: boolean
  /** The OS sandbox it starts in (`bubblewrap 0.8.0`): a sandbox that fails before `ready` is named in the failure. */
  sandbox?: string
}

/** How long a new agent process may take to send `ready`. */
const READY_TIMEOUT_MS = 30_000

/** SIGTERM first; SIGKILL after this many ms if the process is still there. */
const KILL_GRACE_MS = 200
/** Longest line accepted from an agent (a result for the largest bundled table is a few MB). */
const MAX_LINE_CHARS = 64 * 2 ** 20

/** A host message without its id (the process numbers requests itself). */
type HostRequest = HostMessage extends infer M ? (M extends HostMessage ? Omit<M, 'id'> : never) : never

type Pending = { id: number; resolve: (m: AgentMessage) => void; reject: (e: AgentFailure) => void }
type Ready = Extract<AgentMessage, { type: 'ready' }>

/**
 * One agent process and the JSON-lines channel to it. Requests go one at a time; anything the process does
 * that is not a well-formed answer (an exit, a crash, a line that is not a protocol message) fails the pending
 * request with a structured `AgentFailure` and ends the process.
 */
export class AgentProcess {
  readonly ready: Promise<Ready>
  private readonly child: ChildProcess
  private pending: Pending | null = null
  private nextId = 0
  /** The pieces of the line being read, none holding a newline yet, and their length. */
  private lineParts: string[] = []
  private linePartsChars = 0
  private dead: AgentFailure | null = null
  private killedByUs = false
  private readonly detached: boolean
  private readonly sandbox: string | null
  private startupErr = ''
  private isReady = false
  private settleReady!: (r: Ready) => void
  private failReady!: (e: AgentFailure) => void

  constructor(launch: Launch) {
    refuseInspectorSignal()
    this.ready = new Promise<Ready>((resolve, reject) => {
      this.settleReady = resolve
      this.failReady = reject
    })
    this.ready.catch(() => undefined)
    const readyTimer = realSetTimeout(
      () =>
        this.kill(
          new AgentFailure(
            'agent_crash',
            `agent process sent no "ready" message within ${formatSeconds(READY_TIMEOUT_MS / 1000)} s`,
          ),
        ),
      READY_TIMEOUT_MS,
    )
    readyTimer.unref()
    this.ready.then(
      () => {
        realClearTimeout(readyTimer)
        this.isReady = true
      },
      () => realClearTimeout(readyTimer),
    )
    this.detached = launch.detached === true
    this.sandbox = launch.sandbox ?? null
    this.child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: agentStdio(),
      detached: this.detached,
    })
    this.child.stdout!.setEncoding('utf8')
    this.child.stdout!.on('data', (chunk: string) => this.onData(chunk))
    const log = launch.log ?? ((c: string) => process.stderr.write(terminalOutput(c)))
    const decoder = new StringDecoder('utf8')
    const relay: StderrStream = launch.stderr?.stream() ?? {
      push: (chunk) => log(decoder.write(chunk)),
      end: () => {
        const rest = decoder.end()
        if (rest) log(rest)
      },
    }
    this.child.stderr!.on('data', (chunk: Buffer) => {
      if (!this.isReady && this.startupErr.length < 4096) this.startupErr += chunk.toString('utf8', 0, 4096)
      relay.push(chunk)
    })
    this.child.stderr!.on('end', () => relay.end())
    this.child.stdin!.on('error', () => undefined)
    this.child.on('error', (error) =>
      this.fail(new AgentFailure('agent_crash', `agent process could not start: ${error.message}`)),
    )
    // 'close' (not 'exit'): all of the agent's stderr has reached the log by the time its end is recorded.
    this.child.on('close', (code, signal) => this.onExit(code, signal))
  }

  get alive(): boolean {
    return this.dead === null
  }

  /** Sends one request and resolves with the agent's answer to it; rejects with an `AgentFailure` otherwise. */
  async request(message: HostRequest, signal?: AbortSignal): Promise<AgentMessage> {
    if (signal) {
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () =>
          reject(signal.reason instanceof AgentFailure ? signal.reason : new AgentFailure('timeout', 'aborted'))
        if (signal.aborted) onAbort()
        else signal.addEventListener('abort', onAbort, { once: true })
      })
      aborted.catch(() => undefined)
      try {
        await Promise.race([this.ready, aborted])
      } catch (error) {
        if (error instanceof AgentFailure) this.kill(error)
        throw error
      }
    } else {
      await this.ready
    }
    if (this.dead) throw this.dead
    if (this.pending) throw new Error('agent process: one request at a time')
    const id = this.nextId++
    return new Promise<AgentMessage>((resolve, reject) => {
      const onAbort = () => {
        const reason = signal!.reason
        const failure = reason instanceof AgentFailure ? reason : new AgentFailure('timeout', 'aborted')
        this.kill(failure)
      }
      const done = () => {
        signal?.removeEventListener('abort', onAbort)
        this.pending = null
      }
      this.pending = {
        id,
        resolve: (m) => {
          done()
          resolve(m)
        },
        reject: (e) => {
          done()
          reject(e)
        },
      }
      if (signal?.aborted) return onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      this.child.stdin!.write(`${JSON.stringify({ ...message, id })}\n`)
    })
  }

  /** Ends the process (SIGTERM, then SIGKILL after a short grace); a pending request fails with `why`. */
  kill(why: AgentFailure = new AgentFailure('agent_exit', 'agent process stopped by the harness')): void {
    this.fail(why)
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    this.killedByUs = true
    this.signal('SIGTERM')
    const timer = realSetTimeout(() => this.signal('SIGKILL'), KILL_GRACE_MS)
    timer.unref()
    this.child.once('exit', () => realClearTimeout(timer))
  }

  /** Closes stdin and waits for the process to end (killing it after the grace period). */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()))
    this.killedByUs = true
    this.child.stdin!.end()
    const timer = realSetTimeout(() => this.kill(), KILL_GRACE_MS)
    await exited
    realClearTimeout(timer)
  }

  /** Signals the process, and its whole group when it has one of its own (what it started goes too). */
  private signal(sig: NodeJS.Signals): void {
    if (this.detached && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, sig)
        return
      } catch {
        // the group is gone; the process may not be
      }
    }
    this.child.kill(sig)
  }

  /**
   * Only the new chunk is searched for a newline, and a line's pieces are joined once: appending to one string
   * and searching it whole flattened it on every chunk, a minute of copying for a 40 MB line (issue 26).
   */
  private onData(chunk: string): void {
    let start = 0
    let newline = chunk.indexOf('\n')
    while (newline !== -1) {
      this.lineParts.push(chunk.slice(start, newline))
      const line = this.lineParts.join('').trim()
      this.lineParts = []
      this.linePartsChars = 0
      if (line) this.onLine(line)
      start = newline + 1
      newline = chunk.indexOf('\n', start)
    }
    if (start < chunk.length) {
      this.lineParts.push(start === 0 ? chunk : chunk.slice(start))
      this.linePartsChars += chunk.length - start
    }
    if (this.linePartsChars > MAX_LINE_CHARS)
      this.kill(new AgentFailure('invalid_output', `agent wrote a line longer than ${MAX_LINE_CHARS} characters`))
  }

  private onLine(line: string): void {
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      this.kill(new AgentFailure('invalid_output', `agent wrote a line that is not JSON: ${preview(line)}`))
      return
    }
    const message = AgentMessageSchema.safeParse(parsed)
    if (!message.success) {
      const issue = message.error.issues[0]
      this.kill(
        new AgentFailure(
          'invalid_output',
          `agent wrote an invalid protocol message (${issue?.path.join('.') || 'message'}: ${issue?.message}): ${preview(line)}`,
        ),
      )
      return
    }
    const m = message.data
    if (m.type === 'ready') {
      this.settleReady(m)
      return
    }
    if (m.type === 'error' && m.id === null) {
      const failure = new AgentFailure(toKnownKind(m.kind, 'agent_crash'), m.message)
      this.failReady(failure)
      this.kill(failure)
      return
    }
    if (!this.pending || m.id !== this.pending.id) {
      this.kill(new AgentFailure('invalid_output', `agent answered request ${m.id}, which is not pending`))
      return
    }
    if (m.type === 'error') {
      const failure = new AgentFailure(toKnownKind(m.kind, 'exception'), m.message)
      if (failure.kind === 'agent_crash') this.kill(failure)
      else this.pending.reject(failure)
      return
    }
    this.pending.resolve(m)
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.detached && this.child.pid !== undefined) {
      // What the agent started in its group ends with it.
      try {
        process.kill(-this.child.pid, 'SIGKILL')
      } catch {
        // nothing left
      }
    }
    if (this.killedByUs && this.dead) return
    const bwrap =
      this.sandbox && !this.isReady ? this.startupErr.split('\n').find((l) => l.startsWith('bwrap: ')) : undefined
    if (bwrap) {
      this.fail(
        new AgentFailure(
          'agent_crash',
          `the sandbox (${this.sandbox}) could not start it: ${bwrap.slice('bwrap: '.length)}; run with --isolate process to use Node's permission model instead`,
        ),
      )
      return
    }
    this.fail(exitFailure(code, signal))
  }

  private fail(failure: AgentFailure): void {
    if (!this.dead) this.dead = failure
    this.failReady(this.dead)
    this.pending?.reject(this.dead)
  }
}

/** How a process that ended on its own is recorded: V8 aborts on heap exhaustion, anything else is an exit or crash. */
function exitFailure(code: number | null, signal: NodeJS.Signals | null): AgentFailure {
  if (signal === 'SIGABRT' || code === 134)
    return new AgentFailure('out_of_memory', `agent process aborted (${signal ?? `code ${code}`}): out of memory`)
  if (signal) return new AgentFailure('agent_crash', `agent process was killed by ${signal}`)
  return new AgentFailure('agent_exit', `agent process exited with code ${code}`)
}

const AGENT_REPORTABLE: ReadonlySet<string> = new Set([
  'timeout',
  'exception',
  'invalid_output',
  'parse_failure',
  'refusal',
  'rate_limited',
  'provider_error',
  'agent_crash',
])

function toKnownKind(kind: string | undefined, fallback: FailureKind): FailureKind {
  return kind !== undefined && AGENT_REPORTABLE.has(kind) ? (kind as FailureKind) : fallback
}

function preview(line: string): string {
  return truncate(line, 81)
}
