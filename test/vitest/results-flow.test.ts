import { describe, expect, it } from 'vitest'
import { letResultsFlow } from '../../src/vitest/results-flow.js'
import { runFixture, TempDirs } from '../helpers/vitest-run.js'

/** Spins until `ms` have passed: a trial that never waits on I/O. */
function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

describe('letResultsFlow', () => {
  it('turns the event loop once 10 ms have passed since the last turn, and not before', async () => {
    busy(11)
    let earlier = false
    setImmediate(() => {
      earlier = true
    })
    const before = performance.now()
    const turn = letResultsFlow()
    const again = letResultsFlow()
    const elapsed = performance.now() - before
    expect(turn).toBeInstanceOf(Promise)
    // Within 10 ms of a turn there is none to wait for. A loaded machine may stop this process for longer
    // between the two calls: then a second turn is due, and no claim is made.
    if (elapsed < 10) expect(again).toBeUndefined()
    await turn
    // A turn of the loop, not a microtask: the immediate queued before it has run.
    expect(earlier).toBe(true)
    busy(11)
    expect(letResultsFlow()).toBeInstanceOf(Promise)
  })
})

describe('evalCase under fake timers', () => {
  it('runs an eval file that fakes the timers and moves the clock on: the harness keeps real time', async () => {
    const temp = new TempDirs()
    try {
      const run = await runFixture({ fixture: 'fake-timers', outputDir: temp.make(), cacheDir: temp.make() })
      expect(run.tests.tests.map((t) => t.state)).toEqual(Array(18).fill('passed'))
      expect(run.reports.runs().map((r) => r.f1)).toEqual(Array(18).fill(1))
    } finally {
      temp.removeAll()
    }
  }, 60_000)
})
