import { readFile, stat } from 'node:fs/promises'
import { caseLabel } from '../core/case-label.js'
import type { RunRecord } from '../core/run-record.js'
import type { Transcript } from '../core/transcript.js'
import { armName } from '../report-builder/aggregate.js'
import { baselineRuns, readBaseline } from '../report-builder/baseline.js'
import type { ComparableRun } from '../report-builder/compare.js'
import { type GradedCell, cellKey, gradedCells } from './cells.js'
import { type ViewedReport, loadReport, missingTranscript } from './load.js'
import { lastAnswerText } from './transcript-view.js'

/** The baseline side of `view --against`: a report folder (records and transcripts) or a baseline.json (outcomes only). */
export interface Baseline {
  /** As the user gave it. */
  source: string
  /** The full report, when the baseline is one; null for a baseline.json. */
  report: ViewedReport | null
  runs: ComparableRun[]
}

export async function loadBaseline(path: string, shown: string): Promise<Baseline> {
  const info = await stat(path).catch(() => null)
  if (info?.isFile() && path.endsWith('.json')) {
    const head = await readFile(path, 'utf8').then((t) => t.slice(0, 200))
    if (/"baselineVersion"/.test(head))
      return { source: shown, report: null, runs: baselineRuns((await readBaseline(path))!) }
  }
  const report = await loadReport(path)
  return { source: shown, report, runs: report.records }
}

/** A candidate run's counterpart in the baseline. */
export interface Counterpart {
  run: ComparableRun
  /** The baseline's full record (a report folder), else null. */
  record: RunRecord | null
  transcript: Transcript | null
  /** Why the baseline has no transcript for it. */
  missing: string | null
}

/**
 * Pairs each candidate run with the baseline's run of the same case, turn and trial. When the two sides share an
 * agent (agent@model), runs pair within it; when they share none (a changed agent), across agents, as `compare`
 * pairs two arms.
 */
export function pairRuns(candidate: readonly RunRecord[], baseline: Baseline): Array<Counterpart | null> {
  const arms = (runs: readonly ComparableRun[]) => new Set(runs.map((r) => armName(r.agent, r.model)))
  const candidateArms = arms(candidate)
  const shared = [...arms(baseline.runs)].some((a) => candidateArms.has(a))
  const key = (r: ComparableRun) =>
    [
      shared ? armName(r.agent, r.model) : '',
      r.suite,
      r.dataset,
      r.category ?? '',
      r.caseId,
      r.turn ?? '',
      r.trial,
    ].join('\u0000')
  const byKey = new Map<string, number>()
  baseline.runs.forEach((r, i) => {
    if (!byKey.has(key(r))) byKey.set(key(r), i)
  })
  return candidate.map((r) => {
    const i = byKey.get(key(r))
    if (i === undefined) return null
    const record = baseline.report ? baseline.report.records[i]! : null
    const transcript = record?.transcriptId ? (baseline.report!.transcripts.get(record.transcriptId) ?? null) : null
    const missing = record
      ? missingTranscript(baseline.report!, record)
      : 'A baseline.json keeps outcomes only: no cells, answers or transcripts.'
    return { run: baseline.runs[i]!, record, transcript, missing }
  })
}

type Flip = 'right → wrong' | 'wrong → right' | 'changed'

interface CellChange {
  row: number
  column: string
  before: GradedCell | undefined
  after: GradedCell | undefined
  flip: Flip
}

/** The cells whose verdict or value differ between the baseline's run and the candidate's. */
export function cellChanges(before: RunRecord, after: RunRecord): CellChange[] {
  const map = (cells: GradedCell[]) => new Map(cells.map((c) => [cellKey(c.row, c.column), c]))
  const a = map(gradedCells(before))
  const b = map(gradedCells(after))
  const out: CellChange[] = []
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k)
    const y = b.get(k)
    if (x && y && x.verdict === y.verdict && x.agent === y.agent) continue
    const right = (c: GradedCell | undefined) => c?.verdict === 'right'
    const flip: Flip = right(x) && !right(y) ? 'right → wrong' : !right(x) && right(y) ? 'wrong → right' : 'changed'
    const cell = (x ?? y)!
    out.push({ row: cell.row, column: cell.column, before: x, after: y, flip })
  }
  return out.sort((p, q) => p.row - q.row || (p.column < q.column ? -1 : p.column > q.column ? 1 : 0))
}

type Outcome = 'correct' | 'incorrect' | 'failed' | 'skipped' | 'ok'

export function outcomeOf(r: Pick<RunRecord, 'correct'> & Partial<Pick<RunRecord, 'status'>>): Outcome {
  if (r.status === 'skipped') return 'skipped'
  if (r.status === 'failed') return 'failed'
  return r.correct === true ? 'correct' : r.correct === false ? 'incorrect' : r.status === undefined ? 'failed' : 'ok'
}

/** One line of the index's "what changed": a candidate run whose outcome, score or cells moved. */
export interface Change {
  n: number
  label: string
  before: string
  after: string
  direction: 'better' | 'worse' | 'same' | 'new'
  rightToWrong: number
  wrongToRight: number
  /** Both transcripts kept and the last answers differ. */
  answerChanged: boolean
}

const scoreOf = (r: ComparableRun & { status?: RunRecord['status'] }) =>
  r.f1 !== null ? r.f1 : r.correct === true ? 1 : 0

function describe(r: ComparableRun & { status?: RunRecord['status'] }): string {
  const outcome = outcomeOf(r)
  return r.f1 !== null ? `${outcome} · F1 ${r.f1.toFixed(3)}` : outcome
}

/**
 * The candidate runs that moved against the baseline: outcome or score, cells flipped, or (both transcripts kept)
 * a different last answer. `answerOf(n)` is the candidate run's last answer text, null when unknown.
 */
export function changes(
  candidate: readonly RunRecord[],
  pairs: ReadonlyArray<Counterpart | null>,
  answerOf: (n: number) => string | null,
): Change[] {
  const out: Change[] = []
  candidate.forEach((r, n) => {
    const label = `${armName(r.agent, r.model)} · ${r.suite === r.dataset ? r.dataset : `${r.suite} · ${r.dataset}`} · ${caseLabel(r)} · trial ${r.trial + 1}`
    const pair = pairs[n]
    if (!pair) {
      out.push({
        n,
        label,
        before: 'not in the baseline',
        after: describe(r),
        direction: 'new',
        rightToWrong: 0,
        wrongToRight: 0,
        answerChanged: false,
      })
      return
    }
    const flips = pair.record ? cellChanges(pair.record, r) : []
    const rightToWrong = flips.filter((f) => f.flip === 'right → wrong').length
    const wrongToRight = flips.filter((f) => f.flip === 'wrong → right').length
    const before = pair.record ?? pair.run
    const delta = scoreOf(r) - scoreOf(before)
    const direction = delta > 0 ? 'better' : delta < 0 ? 'worse' : 'same'
    const said = answerOf(n)
    const saidBefore = lastAnswerText(pair.transcript)
    const answerChanged = said !== null && saidBefore !== null && said !== saidBefore
    if (
      direction === 'same' &&
      rightToWrong === 0 &&
      wrongToRight === 0 &&
      outcomeOf(before) === outcomeOf(r) &&
      !answerChanged
    )
      return
    out.push({
      n,
      label,
      before: describe(before),
      after: describe(r),
      direction,
      rightToWrong,
      wrongToRight,
      answerChanged,
    })
  })
  return out
}
