import { describe, expect, it } from 'vitest'
import { conversationSession } from '../../src/cases/conversation-turns.js'
import type { DataAgent } from '../../src/core/data-agent.js'
import { AgentFailure } from '../../src/core/errors.js'
import { newMeta } from '../../src/test-meta/build.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'

// A record's failure kind is what the door put on the meta where the failure happened, never read from text.

const provenance = { projectCommit: 'abc', runDateUtc: '2026-12-01T00:00:00.000Z' }

describe('a finished test becomes a record', () => {
  it("takes a failure's kind from the meta; a test error without one is an exception, whatever its text", () => {
    const meta = newMeta({ caseId: 'c', dataset: 'd', agent: 'a' })
    const timedOutText = [{ message: 'Test timed out in 5000ms.' }]
    const bare = recordFromTest(
      { fullName: 'c', state: 'failed', errors: timedOutText, durationMs: 5000, meta },
      provenance,
    )
    expect(bare).toMatchObject({
      status: 'failed',
      failureKind: 'exception',
      failureMessage: 'Test timed out in 5000ms.',
    })
    meta.failure = { kind: 'timeout', message: 'timed out after 5 s' }
    const kept = recordFromTest(
      { fullName: 'c', state: 'failed', errors: [{ message: 'anything' }], durationMs: 5000, meta },
      provenance,
    )
    expect(kept).toMatchObject({ status: 'failed', failureKind: 'timeout', failureMessage: 'timed out after 5 s' })
    // Built once, with the run's provenance.
    expect(kept).toMatchObject(provenance)
  })

  it("a conversation turn whose check outlives the turn's timeout fails as timeout, put on the meta where it happened", async () => {
    const agent: DataAgent = { name: 'quick', session: () => ({ ask: () => ({ value: 1 }) }) }
    const session = conversationSession('talk', { data: [{ a: 1 }], agent, timeout: 50 }, [['q?', () => {}]])
    const live = session.turnMeta(1)
    const error = await session.runTurn(live, 0, () => new Promise(() => {})).catch((e: unknown) => e)
    await session.close()
    expect(error).toBeInstanceOf(AgentFailure)
    expect(live.failure).toEqual({ kind: 'timeout', message: (error as AgentFailure).message })
    const record = recordFromTest(
      {
        fullName: 'talk#t1',
        state: 'failed',
        errors: [{ message: 'whatever the runner says' }],
        durationMs: 50,
        meta: live,
      },
      provenance,
    )
    expect(record).toMatchObject({ status: 'failed', failureKind: 'timeout', agent: 'quick', turn: 1, suite: 'talk' })
    // The runner's own timeout sits past the question's and the check's.
    expect(session.runnerTimeoutMs(0)).toBeGreaterThan(2 * 50)
  })
})
