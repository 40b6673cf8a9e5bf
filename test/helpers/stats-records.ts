import { emptyUsage } from '../../src/core/usage.js'
import { type RunRecord, RunRecordSchema } from '../../src/core/run-record.js'

export const HASH_A = { dirty: 'a'.repeat(64), clean: 'b'.repeat(64) }

/** A valid RunRecord with sensible defaults; overrides win. Validated, so tests never build impossible rows. */
export function makeRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  const correct = overrides.correct === undefined ? true : overrides.correct
  const base: RunRecord = {
    recordVersion: 1,
    caseId: 'case-1',
    turn: null,
    suite: 'evals/repair.eval.ts',
    dataset: 'hospital',
    category: 'repair',
    agent: 'baseline',
    agentKind: 'baseline',
    model: null,
    provider: null,
    trial: 0,
    seed: 1,
    generation: null,
    status: 'ok',
    failureKind: null,
    failureMessage: null,
    correct,
    completed: true,
    validationError: null,
    precision: null,
    recall: null,
    f1: null,
    tp: null,
    fp: null,
    fn: null,
    detection: null,
    diagnostics: null,
    perColumn: null,
    perKind: null,
    fixes: null,
    metrics: {},
    steps: 1,
    runtimeS: 0.5,
    startedAt: null,
    usage: emptyUsage(),
    cached: false,
    warnings: [],
    llmUpstream: null,
    usageSource: null,
    llmCalls: [],
    toolCalls: [],
    transcriptId: null,
    datasetSha256: HASH_A,
    agentSource: null,
    agentSha256: null,
    isolated: null,
    isolation: null,
    projectCommit: 'abc123',
    configId: 'cfg-1',
    armId: 'arm-baseline',
    runDateUtc: '2025-01-01T00:00:00Z',
  }
  return RunRecordSchema.parse({ ...base, ...overrides })
}

/** A failed run: no judgment, not completed. */
export function failedRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return makeRecord({
    status: 'failed',
    failureKind: 'timeout',
    failureMessage: 'timed out after 30 s',
    correct: null,
    completed: false,
    ...overrides,
  })
}
