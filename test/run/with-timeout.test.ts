import { afterEach, describe, expect, it, vi } from 'vitest'
import { AgentFailure } from '../../src/core/errors.js'
import { type LazySignal, withLazyTimeout, withTimeout } from '../../src/run/with-timeout.js'

// The trial timeout on Vitest's fake clock: no real waiting, no race with the machine's load.
describe('withLazyTimeout', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('times out work that never reads its signal, and aborts the signal of work that did', async () => {
    vi.useFakeTimers()
    const unread = withLazyTimeout(1_000, () => new Promise(() => {}))
    const expectation = expect(unread).rejects.toThrow(new AgentFailure('timeout', 'timed out after 1 s'))
    let seen: AbortSignal | undefined
    const read = withLazyTimeout(1_000, (lazy) => {
      seen = lazy.signal
      return new Promise(() => {})
    })
    const readExpectation = expect(read).rejects.toBeInstanceOf(AgentFailure)
    expect(seen?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1_000)
    await expectation
    await readExpectation
    expect(seen?.aborted).toBe(true)
    expect(seen?.reason).toBeInstanceOf(AgentFailure)
    expect((seen?.reason as AgentFailure | undefined)?.kind).toBe('timeout')
  })

  it('links the signal to the parent when it is read: aborted at once if the parent was, else when it is', async () => {
    const before = new AbortController()
    before.abort(new Error('run cancelled'))
    await withLazyTimeout(
      null,
      (lazy) => {
        expect(lazy.signal.aborted).toBe(true)
        expect((lazy.signal.reason as Error).message).toBe('run cancelled')
      },
      before.signal,
    )

    const later = new AbortController()
    await withLazyTimeout(
      null,
      (lazy) => {
        const signal = lazy.signal
        expect(signal.aborted).toBe(false)
        later.abort(new Error('test timed out'))
        expect(signal.aborted).toBe(true)
      },
      later.signal,
    )
  })

  it('asks a lazy parent for its signal only when the work reads its own, and after expiry hands an aborted one', async () => {
    let asked = 0
    const parent = () => {
      asked++
      return new AbortController().signal
    }
    await withLazyTimeout(1_000, () => 'unread', parent)
    expect(asked).toBe(0)
    await withLazyTimeout(1_000, (lazy) => lazy.signal.aborted, parent)
    expect(asked).toBe(1)

    vi.useFakeTimers()
    let late: LazySignal | undefined
    const pending = withLazyTimeout(
      1_000,
      (lazy) => {
        late = lazy
        return new Promise(() => {})
      },
      parent,
    )
    const expectation = expect(pending).rejects.toBeInstanceOf(AgentFailure)
    await vi.advanceTimersByTimeAsync(1_000)
    await expectation
    // Read only now: made already aborted, with the timeout as its reason.
    expect(late?.signal.aborted).toBe(true)
    expect((late?.signal.reason as AgentFailure | undefined)?.kind).toBe('timeout')
  })

  it('withTimeout hands the signal itself and returns what the work returned', async () => {
    await expect(withTimeout(null, (signal) => (signal instanceof AbortSignal ? 'signal' : 'none'))).resolves.toBe(
      'signal',
    )
  })
})
