/*
 * The harness's own timers and clock, taken when it loads. An eval file may fake the globals
 * (`vi.useFakeTimers()`, `jest.useFakeTimers()`): a trial's timeout, the gateway's backoff, an agent process's
 * deadlines and the worker's turns of the event loop keep real time all the same. A faked timer would fire when
 * the user moves the fake clock, or never.
 */
export const realSetTimeout = globalThis.setTimeout
export const realClearTimeout = globalThis.clearTimeout
export const realSetImmediate = globalThis.setImmediate
export const realNow: () => number = performance.now.bind(performance)
