import { isMainThread } from 'node:worker_threads'

let refused = false

/**
 * Closes the inspector's signal door in the harness: on POSIX, `SIGUSR1` (what `process._debugProcess(pid)` and
 * `kill -USR1` send) makes Node open its inspector on 127.0.0.1:9229, and any process of the same user can then
 * run code in the harness (read the API key, the clean CSVs, forge reports). A listener replaces Node's own
 * handler, so the signal is ignored. Only the main thread can hold a signal listener: in a worker thread (Vitest's
 * `threads` pool) the process's main thread must call this (the dataforge reporter does). Once per process.
 */
export function refuseInspectorSignal(): void {
  if (refused || process.platform === 'win32' || !isMainThread) return
  refused = true
  process.on('SIGUSR1', () => undefined)
}
