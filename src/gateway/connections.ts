import { readFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import { GatewayError } from './errors.js'

export interface ConnectionLimits {
  /** Connections open to the gateway at once, all trials together (default 1,024, lower under a low open-file limit). */
  maxConnections: number
  /** Connections one trial's calls may hold open at once (default 64). */
  trialConnections: number
}

/**
 * 1,024 connections, or a quarter of the process's open-file limit when that is lower (read where the system says
 * it: /proc/self/limits on Linux), so a flood leaves the harness most of its file descriptors; 64 per trial.
 */
export function defaultConnectionLimits(): ConnectionLimits {
  const files = openFileLimit()
  return { maxConnections: files ? Math.max(16, Math.min(1024, Math.floor(files / 4))) : 1024, trialConnections: 64 }
}

function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    return line ? Number(line[1]) : null
  } catch {
    return null
  }
}

interface SocketState<T> {
  /** The trial of the last request on it; null until its first request. */
  trial: T | null
  /** Requests being answered on it. */
  active: number
}

/**
 * Keeps the gateway's connections (and so its file descriptors) bounded, so an agent that opens sockets by the
 * thousand cannot starve the harness. At the overall cap a new connection closes the oldest idle one (one that
 * never sent a request first); with none idle, the new one is closed. A connection belongs to the trial of its
 * last request; a trial over its own cap loses its idle connections, and with none idle its request is refused.
 */
export class ConnectionGuard<T extends { label: string }> {
  private readonly sockets = new Map<Socket, SocketState<T>>()
  private readonly byTrial = new Map<T, Set<Socket>>()

  constructor(private readonly limits: ConnectionLimits) {}

  get open(): number {
    return this.sockets.size
  }

  onConnection(socket: Socket): void {
    if (this.sockets.size >= this.limits.maxConnections) {
      const idle = this.oldestIdle(this.sockets.keys(), true) ?? this.oldestIdle(this.sockets.keys(), false)
      if (!idle) {
        socket.destroy()
        return
      }
      this.drop(idle)
      idle.destroy()
    }
    this.sockets.set(socket, { trial: null, active: 0 })
    socket.once('close', () => this.drop(socket))
  }

  /** A request on `socket` for `trial`; `done` is called once it is answered. Throws when the trial holds too many connections. */
  onRequest(socket: Socket, trial: T, done: (listener: () => void) => void): void {
    const state = this.sockets.get(socket)
    if (!state) return
    // Busy from now on: the trial's idle connections may be closed below, never this one.
    state.active++
    done(() => {
      state.active--
    })
    if (state.trial !== trial) {
      if (state.trial) this.byTrial.get(state.trial)?.delete(socket)
      state.trial = trial
      let own = this.byTrial.get(trial)
      if (!own) {
        own = new Set()
        this.byTrial.set(trial, own)
      }
      own.add(socket)
      while (own.size > this.limits.trialConnections) {
        const idle = this.oldestIdle(own.values(), false)
        if (!idle) break
        this.drop(idle)
        idle.destroy()
      }
      if (own.size > this.limits.trialConnections) {
        // Answered, then closed (`connection: close`); it stops counting now.
        this.drop(socket)
        throw new GatewayError(
          429,
          'too_many_connections',
          `${trial.label}: more than ${this.limits.trialConnections} connections to the model gateway at once (each busy with a call); this one is refused and closed`,
          'invalid_request',
          { connection: 'close' },
        )
      }
    }
  }

  /** The trial is over: its connections are no longer its own (an agent process keeps its connection for the next trial). */
  forget(trial: T): void {
    for (const socket of this.byTrial.get(trial) ?? []) {
      const state = this.sockets.get(socket)
      if (state) state.trial = null
    }
    this.byTrial.delete(trial)
  }

  private oldestIdle(sockets: Iterable<Socket>, neverUsed: boolean): Socket | undefined {
    for (const socket of sockets) {
      const state = this.sockets.get(socket)
      if (state && state.active === 0 && (!neverUsed || state.trial === null)) return socket
    }
    return undefined
  }

  private drop(socket: Socket): void {
    const state = this.sockets.get(socket)
    if (!state) return
    this.sockets.delete(socket)
    if (state.trial) this.byTrial.get(state.trial)?.delete(socket)
  }
}
