import type { PRF } from '../../../src/core/repair-score.js'
import type { RunRecord } from '../../../src/core/run-record.js'
import { emptyUsage } from '../../../src/core/usage.js'
import { type GroupDelta, groupDeltas } from '../../../src/report-builder/baseline.js'
import { buildReport, type EvalReport } from '../../../src/report-builder/build.js'
import { Random } from '../../../src/core/random.js'
import { HASH_A, failedRecord, makeRecord } from '../../helpers/stats-records.js'

/** A clean value that must never reach an HTML report: records carrying it stand in for old runs.jsonl files. */
export const CLEAN_SECRET = 'CLEAN-VALUE-7f3a'

const COLUMNS = ['name', 'email', 'city', 'state', 'zip']
const KINDS = ['typo', 'null_placeholder', 'format_drift', 'fd_violation']

function prf(tp: number, fp: number, fn: number): PRF {
  const precision = tp + fp ? tp / (tp + fp) : 1
  const recall = tp + fn ? tp / (tp + fn) : 1
  return { tp, fp, fn, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 }
}

/** A completed repair run whose counts, per-column and per-kind figures and diagnostics agree. */
export function repairRecord(
  agent: string,
  trial: number,
  quality: number,
  overrides: Partial<RunRecord> = {},
): RunRecord {
  const errors = 20
  const tp = Math.round(errors * quality)
  const wrong = Math.min(errors - tp, 2)
  const missed = errors - tp - wrong
  const over = quality > 0 && quality < 1 ? 1 : 0
  const total = prf(tp, wrong + over, wrong + missed)
  const perColumn = Object.fromEntries(
    COLUMNS.map((c, i) => [
      c,
      prf(Math.round((tp * (i + 1)) / 15), i === 2 ? over : 0, Math.round(((errors - tp) * (i + 1)) / 15)),
    ]),
  )
  const perKind = Object.fromEntries(
    KINDS.map((k, i) => [
      k,
      {
        total: 5,
        tp: Math.min(5, Math.round(quality * 5 + (i % 2))),
        recall: Math.min(5, Math.round(quality * 5 + (i % 2))) / 5,
      },
    ]),
  )
  return makeRecord({
    caseId: 'synthetic',
    suite: 'synthetic',
    dataset: 'synthetic',
    category: null,
    agent,
    agentKind: agent === 'mock' ? 'oracle' : 'baseline',
    trial,
    seed: 42 + trial,
    correct: quality >= 1,
    precision: total.precision,
    recall: total.recall,
    f1: total.f1,
    tp: total.tp,
    fp: total.fp,
    fn: total.fn,
    detection: total,
    perColumn,
    perKind,
    diagnostics: {
      wrongCell: [],
      wrongValue: Array.from({ length: wrong }, (_, i) => ({
        row: 10 + i,
        column: 'city',
        got: `agent-city-${i}`,
        want: CLEAN_SECRET,
        dirty: 'Bostn',
      })),
      overRepair: Array.from({ length: over }, (_, i) => ({ row: 50 + i, column: 'state', got: 'MA', dirty: 'ma' })),
      missedRepair: Array.from({ length: missed }, (_, i) => ({
        row: 100 + i,
        column: COLUMNS[i % COLUMNS.length]!,
        want: CLEAN_SECRET,
        dirty: 'x',
      })),
      caseInsensitiveColumn: [],
      duplicateCells: 0,
      noopFixes: 0,
      malformed: [],
    },
    fixes: null,
    ...overrides,
  })
}

function questionRecord(
  model: string,
  caseId: string,
  category: string,
  correct: boolean,
  overrides: Partial<RunRecord> = {},
): RunRecord {
  const cost = { 'model-small': 0.0002, 'model-mid': 0.001, 'model-large': 0.004 }[model] ?? 0
  return makeRecord({
    caseId,
    suite: 'evals/questions.eval.ts',
    dataset: 'shop',
    category,
    agent: 'data-agent',
    agentKind: 'model',
    model,
    provider: 'openrouter',
    correct,
    validationError: correct ? null : `expected a number near 1234, got ${caseId}-answer`,
    steps: 3,
    usage: { ...emptyUsage(), calls: 3, promptTokens: 900, completionTokens: 100, costUsd: cost },
    datasetSha256: { dirty: 'c'.repeat(64), clean: 'c'.repeat(64) },
    ...overrides,
  })
}

function conformanceRecord(agent: string, trial: number, observed: [number, number, number]): RunRecord {
  const [pos, neg, neu] = observed
  return makeRecord({
    caseId: 'review sentiment mix',
    suite: 'evals/conformance.eval.ts',
    dataset: 'reviews',
    category: 'generation',
    agent,
    agentKind: 'custom',
    trial,
    correct: true,
    metrics: {
      conformanceScore: 100 - (Math.abs(pos - 40) + Math.abs(neg - 30) + Math.abs(neu - 30)) / 2,
      'conformance.sentiment.analyzed': 100,
      'conformance.sentiment.score': 100 - (Math.abs(pos - 40) + Math.abs(neg - 30) + Math.abs(neu - 30)) / 2,
      'conformance.sentiment.p': 0.21,
      'conformance.sentiment.positive.requested': 40,
      'conformance.sentiment.negative.requested': 30,
      'conformance.sentiment.neutral.requested': 30,
      'conformance.sentiment.positive.evaluated': pos,
      'conformance.sentiment.negative.evaluated': neg,
      'conformance.sentiment.neutral.evaluated': neu,
    },
    datasetSha256: null,
  })
}

/** Repair runs of three agents on two datasets, with one timeout. */
export function repairRecords(shift = 0): RunRecord[] {
  const out: RunRecord[] = []
  const qualities: Record<string, number[]> = {
    baseline: [0.6, 0.7, 0.5, 0.65],
    noop: [0, 0, 0, 0],
    mock: [1, 1, 1, 1],
  }
  for (const [agent, qs] of Object.entries(qualities)) {
    for (const [trial, q] of qs.entries())
      out.push(repairRecord(agent, trial, Math.max(0, Math.min(1, q + (agent === 'baseline' ? shift : 0)))))
  }
  out.push(
    failedRecord({
      caseId: 'synthetic',
      suite: 'synthetic',
      dataset: 'synthetic',
      category: null,
      agent: 'baseline',
      trial: 4,
      seed: 46,
      failureMessage: 'timed out after 300 s',
    }),
  )
  out.push(
    repairRecord('baseline', 0, 0.9, {
      caseId: 'hospital',
      suite: 'hospital',
      dataset: 'hospital',
      datasetSha256: HASH_A,
    }),
  )
  return out
}

export function questionRecords(): RunRecord[] {
  const out: RunRecord[] = []
  const accuracy: Record<string, number> = { 'model-small': 0.4, 'model-mid': 0.8, 'model-large': 0.7 }
  for (const [model, acc] of Object.entries(accuracy)) {
    for (let i = 0; i < 10; i++) {
      const category = ['aggregation', 'join', 'refusal'][i % 3]!
      out.push(questionRecord(model, `q${i}`, category, i / 10 < acc))
    }
    for (let turn = 1; turn <= 3; turn++)
      out.push(questionRecord(model, 'customer revenue', 'conversation', turn < 3 || model !== 'model-small', { turn }))
  }
  return out
}

export function conformanceRecords(): RunRecord[] {
  return [
    conformanceRecord('review-writer', 0, [45, 28, 27]),
    conformanceRecord('review-writer', 1, [43, 29, 28]),
    conformanceRecord('other-writer', 0, [60, 20, 20]),
  ]
}

export function reportOf(
  records: readonly RunRecord[],
  config: Record<string, unknown> = { command: 'test' },
): EvalReport {
  return buildReport({
    records,
    datasets: [],
    cwd: process.cwd(),
    runDateUtc: '2026-11-30T12:00:00.000Z',
    project: { commit: 'abc123', dirty: false },
    config,
  })
}

/** Everything at once: repair, question suites with three models, conformance, and deltas against a baseline. */
export function fullReport(): { report: EvalReport; baselineDeltas: GroupDelta[] } {
  const report = reportOf([...repairRecords(), ...questionRecords(), ...conformanceRecords()])
  const before = repairRecords(0.3)
  const baselineDeltas = groupDeltas(before, report)
  return { report, baselineDeltas }
}

/** `n` repair records spread over `agents` agents, for the size check. */
export function manyRecords(n: number, agents = 10): RunRecord[] {
  const random = new Random(7)
  return Array.from({ length: n }, (_, i) =>
    repairRecord(`agent-${i % agents}`, Math.floor(i / agents), Math.round(random.next() * 20) / 20),
  )
}
