import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunContext } from '../../src/core/agent.js'
import { createTask } from '../../src/core/ground-truth.js'
import type { AgentTask } from '../../src/core/schemas.js'
import type { ProviderClock as Clock } from '../../src/adapters/providers/index.js'

/** A task over a small table; ground truth is empty (these tests grade nothing). */
export function makeTask(columns: string[], rows: string[][], name = 'tiny'): AgentTask {
  return createTask(
    { name, dirty: { columns, rows }, seed: 7 },
    {
      corrections: [],
      dataset: {
        id: name,
        origin: 'synthetic',
        source: 'test',
        rows: rows.length,
        columns: columns.length,
        columnNames: columns,
        dirtyCells: 0,
        idColumns: [],
        dirty: { sha256: 'x', bytes: 0 },
        clean: { sha256: 'x', bytes: 0 },
      },
    },
  )
}

export function numberedTask(rowCount: number, name = 'numbered'): AgentTask {
  const rows = Array.from({ length: rowCount }, (_, i) => [`city ${i}`, `${1000 + i}`])
  return makeTask(['city', 'zip'], rows, name)
}

export function ctx(trial = 0, seed = 7, signal: AbortSignal = new AbortController().signal): RunContext {
  return { trial, seed, signal }
}

/**
 * Virtual time as a discrete-event simulation: a sleep registers a timer; once all pending work has settled
 * (setImmediate), the clock jumps to the earliest timer and wakes it. Waits take no real time; each is recorded
 * with the virtual time it wakes at. Real I/O does not hold the clock back, so time calls only between sleeps.
 */
export function virtualClock(): Clock & { sleeps: number[]; wakes: number[]; time(): number } {
  let t = 0
  const sleeps: number[] = []
  const wakes: number[] = []
  const timers: Array<{ wake: number; seq: number; fire: () => void }> = []
  let seq = 0
  let pumping = false
  const pump = () => {
    pumping = false
    timers.sort((a, b) => a.wake - b.wake || a.seq - b.seq)
    const next = timers.shift()
    if (!next) return
    t = Math.max(t, next.wake)
    next.fire()
    schedule()
  }
  const schedule = () => {
    if (pumping || timers.length === 0) return
    pumping = true
    setImmediate(pump)
  }
  return {
    sleeps,
    wakes,
    time: () => t,
    now: () => t,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        sleeps.push(ms)
        wakes.push(t + Math.max(0, ms))
        const timer = {
          wake: t + Math.max(0, ms),
          seq: seq++,
          fire: () => {
            signal?.removeEventListener('abort', onAbort)
            resolve()
          },
        }
        const onAbort = () => {
          const at = timers.indexOf(timer)
          if (at >= 0) timers.splice(at, 1)
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        timers.push(timer)
        schedule()
      }),
  }
}

/**
 * A clock whose sleeps end only when the test says so (`fire()` wakes every pending one): for timeouts that
 * must fire at a chosen point of a run, never because the machine was slow.
 */
export function manualClock(): Clock & { fire(): void; pending(): number } {
  const timers = new Set<() => void>()
  return {
    now: () => 0,
    sleep: (_ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        const wake = () => {
          timers.delete(wake)
          resolve()
        }
        timers.add(wake)
        signal?.addEventListener(
          'abort',
          () => {
            timers.delete(wake)
            reject(signal.reason)
          },
          { once: true },
        )
      }),
    fire: () => {
      for (const wake of [...timers]) wake()
    },
    pending: () => timers.size,
  }
}

export function tempDir(prefix = 'dataforge-providers-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export const FAKE_KEY = 'sk-test-0123456789abcdefSECRET'
