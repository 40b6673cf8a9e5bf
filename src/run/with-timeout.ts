import { AgentFailure } from '../core/errors.js'
import { formatSeconds } from '../stats/format.js'

/**
 * Runs `work` with an abort signal that fires after `timeoutMs`. On expiry the promise rejects with an
 * `AgentFailure('timeout')` at once, whether or not the work honours the signal.
 */
export async function withTimeout<T>(
  timeoutMs: number | null,
  work: (signal: AbortSignal) => Promise<T> | T,
  parent?: AbortSignal,
): Promise<T> {
  const controller = new AbortController()
  const onParentAbort = () => controller.abort(parent?.reason)
  if (parent) {
    if (parent.aborted) controller.abort(parent.reason)
    else parent.addEventListener('abort', onParentAbort, { once: true })
  }
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    if (timeoutMs === null || !Number.isFinite(timeoutMs)) return
    timer = setTimeout(() => {
      const failure = new AgentFailure('timeout', `timed out after ${formatSeconds(timeoutMs / 1000)} s`)
      controller.abort(failure)
      reject(failure)
    }, timeoutMs)
  })
  try {
    let started: Promise<T>
    try {
      started = Promise.resolve(work(controller.signal))
    } catch (error) {
      started = Promise.reject(error)
    }
    return await (timeoutMs === null || !Number.isFinite(timeoutMs) ? started : Promise.race([started, expired]))
  } finally {
    clearTimeout(timer)
    parent?.removeEventListener('abort', onParentAbort)
  }
}
