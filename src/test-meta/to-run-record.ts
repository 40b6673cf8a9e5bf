import type { RunRecord } from '../core/run-record.js'
import type { RepairScore } from '../core/repair-score.js'
import { toFailureKind } from '../core/failure-kind.js'
import { buildRunRecord, type RecordOutcome, type RecordProvenance } from '../core/build-run-record.js'
import { mean } from '../stats/quantile.js'
import type { DataforgeMeta } from './build.js'

/** What the reporter needs from a finished Vitest test case (kept minimal so Jest can feed it too). */
export interface FinishedTest {
  fullName: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  errors: ReadonlyArray<{ message?: string; name?: string }>
  durationMs: number
  meta: DataforgeMeta
  /** Registered with `.fails` (`evalCase.fails`): the test passes when its assertions fail. */
  expectedToFail?: boolean
}

/**
 * Turns one finished test into a RunRecord. A test whose matchers scored is a completed run (correct when the
 * test passed); a test that failed before any matcher scored is a run failure: of the kind its door put on the
 * meta where the failure happened (a timeout, the agent's failure, the gateway's refusal), else an `exception`
 * with the test's error. Never a kind guessed from the error's text.
 */
export function recordFromTest(t: FinishedTest, provenance: RecordProvenance): RunRecord {
  const m = t.meta
  // The meta carries the trial's identity as its door built it (`newMeta`): the record takes it as it is.
  const identity = m
  // Set field by field, not spread into each outcome below: one is built for every result, as it arrives.
  const outcome: RecordOutcome = { status: 'ok', runtimeS: t.durationMs / 1000, steps: m.steps ?? 0 }
  outcome.metrics = withMatcherScores(m)
  if (m.startedAt) outcome.startedAt = m.startedAt
  if (m.usage) outcome.usage = m.usage
  if (m.llm) {
    outcome.llmUpstream = m.llm.upstream
    outcome.usageSource = m.llm.usageSource
    outcome.llmCalls = m.llm.calls
    outcome.toolCalls = m.llm.toolCalls ?? []
    outcome.transcriptId = m.llm.transcript?.id ?? null
  }
  if (m.warnings) outcome.warnings = m.warnings
  if (t.state === 'skipped' || t.state === 'pending') {
    outcome.status = 'skipped'
    outcome.failureKind = 'skipped'
    outcome.failureMessage = 'test skipped'
    return buildRunRecord(identity, outcome, provenance)
  }
  const errorText = errorTextOf(t.errors)
  if (m.failure) {
    outcome.status = 'failed'
    outcome.failureKind = toFailureKind(m.failure.kind)
    outcome.failureMessage = m.failure.message
    return buildRunRecord(identity, outcome, provenance)
  }
  const scored = m.matchers.length > 0
  // Whether the eval's assertions held. A `.fails` test passes exactly when one of them failed.
  const assertionsHeld = t.expectedToFail ? t.state === 'failed' : t.state === 'passed'
  if (!scored && (t.expectedToFail ? t.state === 'passed' : t.state === 'failed')) {
    outcome.status = 'failed'
    outcome.failureKind = 'exception'
    outcome.failureMessage = errorText || 'test failed before any eval matcher scored'
    return buildRunRecord(identity, outcome, provenance)
  }
  outcome.correct = assertionsHeld
  outcome.score = lastRepairScore(m)
  outcome.validationError = assertionsHeld ? null : validationLine(errorText || failedVerdict(m))
  return buildRunRecord(identity, outcome, provenance)
}

function errorTextOf(errors: FinishedTest['errors']): string {
  const first = errors[0]
  return first ? `${first.name && first.name !== 'Error' ? `${first.name}: ` : ''}${first.message ?? ''}` : ''
}

/** A scored run's `validationError`: the first line of what failed, at most 500 characters. */
function validationLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 500)
}

/**
 * A test's errors as far as its record reads them, for a file that holds the test until its record is built (Jest's
 * side files): a scored run keeps only its first line (a failed verdict's message may show clean values); a run
 * that failed before scoring keeps its first error, which becomes its `failureMessage`.
 */
export function keptErrors(errors: FinishedTest['errors'], meta: DataforgeMeta): FinishedTest['errors'] {
  const first = errors[0]
  // A run with a failure on its meta is recorded from it alone.
  if (!first || meta.failure) return []
  if (meta.matchers.length === 0) return [first]
  return [{ ...(first.name === undefined ? {} : { name: first.name }), message: validationLine(first.message ?? '') }]
}

/** The first failed verdict's summary: what a `.fails` test's expected failure was (its error is not reported). */
function failedVerdict(m: DataforgeMeta): string {
  const failed = m.matchers.find((r) => !r.passed)
  return failed ? `${failed.matcher}: ${failed.summary}` : 'an assertion failed'
}

function lastRepairScore(m: DataforgeMeta): RepairScore | null {
  for (let i = m.matchers.length - 1; i >= 0; i--) {
    const rec = m.matchers[i]!
    if (rec.repair && !rec.negated) return rec.repair
  }
  return null
}

/**
 * The test's recorded metrics, and its non-repair grader scores as metrics named after their matcher
 * (`toBeNumeric`, …): the mean over the test's positive uses. Negated uses are left out: under `.not` a low
 * grader score is the goal.
 */
function withMatcherScores(m: DataforgeMeta): Record<string, number> {
  // Most tests assert one repair verdict, or none with a score: their metrics are the ones recorded.
  if (!m.matchers.some(isGraderScore)) return { ...m.metrics }
  const scores = new Map<string, number[]>()
  for (const rec of m.matchers) {
    if (!isGraderScore(rec)) continue
    const xs = scores.get(rec.matcher)
    if (xs) xs.push(rec.score)
    else scores.set(rec.matcher, [rec.score])
  }
  const out: Record<string, number> = { ...m.metrics }
  for (const [name, xs] of scores) out[name] = mean(xs)
  return out
}

function isGraderScore(
  rec: DataforgeMeta['matchers'][number],
): rec is DataforgeMeta['matchers'][number] & { score: number } {
  return !rec.repair && rec.score !== undefined && !rec.negated
}
