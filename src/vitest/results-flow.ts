import { realNow, realSetImmediate } from '../core/real-timers.js'

/**
 * Vitest's worker sends finished tests to the main process every 100 ms, over a socket. A batch larger than the
 * socket's buffer (a thousand tests with their verdicts) finishes writing only when the worker's event loop turns.
 * Trials that never wait on I/O (an agent object that answers at once) keep it from turning, so the reporter got
 * every result after the file's last test and built the records then, while the other core sat idle. A body that
 * starts 10 ms or more after the last turn lets the loop turn once first: results reach the reporter while the
 * tests run, for the cost of one macrotask every 10 ms. The clock and the immediate are the real ones
 * (`core/real-timers.ts`): an eval file that fakes timers cannot stop a turn.
 */
const EVERY_MS = 10

let lastTurn = realNow()

/** A turn of the event loop when the last one is 10 ms old or more; otherwise nothing to wait for. */
export function letResultsFlow(): Promise<void> | undefined {
  const at = realNow()
  if (at - lastTurn < EVERY_MS) return undefined
  lastTurn = at
  return new Promise((resolve) => realSetImmediate(resolve))
}
