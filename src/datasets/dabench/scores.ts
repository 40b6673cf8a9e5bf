import type { RunRecord } from '../../core/run-record.js'
import { Random } from '../../core/random.js'
import { quantileSorted } from '../../stats/quantile.js'

/** A rate in [0, 1] with its 95% percentile-bootstrap interval over questions. */
export interface DabenchRate {
  point: number
  low: number
  high: number
}

/** DABench's three metrics over a set of questions. */
export interface DabenchScores {
  questions: number
  subAnswers: number
  /** Accuracy by question: the share of questions with every sub-answer right. */
  abq: DabenchRate
  /** Proportional by sub-question: the mean over questions of the share of its sub-answers right. */
  psaq: DabenchRate
  /** Uniform over sub-questions: right sub-answers over all sub-answers. */
  uasq: DabenchRate
}

export interface DabenchSummary {
  agent: string
  model: string | null
  suite: string
  /** Runs that failed (timeout, exception, bad output): every sub-answer counted wrong. */
  failedRuns: number
  overall: DabenchScores
  byLevel: Array<{ level: string } & DabenchScores>
  byConcept: Array<{ concept: string } & DabenchScores>
}

/** The metric every run of a DABench case carries: how many sub-answers its question has. */
export const DABENCH_SUB_ANSWERS = 'dabench.subAnswers'
/** `dabench.concept:<concept>` = 1 on every run of a question of that concept. */
export const DABENCH_CONCEPT_PREFIX = 'dabench.concept:'

/** True for the metrics a DABench case records as facts about itself (not measurements of the run). */
export function isDabenchFact(name: string): boolean {
  return name === DABENCH_SUB_ANSWERS || name.startsWith(DABENCH_CONCEPT_PREFIX)
}

/** What a run record says about its DABench question, or null for a run of another suite. */
interface DabenchRun {
  subAnswers: number
  /** Right sub-answers: the grader's score × sub-answers; 0 for a failed run. */
  subCorrect: number
  correct: boolean
  concepts: string[]
}

/**
 * Reads a record's DABench facts: the sub-answer count and concepts its case recorded, and the grader's score
 * (`score` from the `qa` command, `toPass` from a runner's `qaSuite`). A run that failed (timeout, exception)
 * got no sub-answer right.
 */
function readDabenchRun(r: { metrics: Record<string, number>; correct: boolean | null }): DabenchRun | null {
  const n = r.metrics[DABENCH_SUB_ANSWERS]
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return null
  const score = r.correct === null ? 0 : (r.metrics.score ?? r.metrics.toPass ?? (r.correct ? 1 : 0))
  const concepts = Object.keys(r.metrics)
    .filter((k) => k.startsWith(DABENCH_CONCEPT_PREFIX) && r.metrics[k]! > 0)
    .map((k) => k.slice(DABENCH_CONCEPT_PREFIX.length))
  return { subAnswers: n, subCorrect: Math.round(score * n), correct: r.correct === true, concepts }
}

const DABENCH_BOOTSTRAP_ITERATIONS = 2000
/** The levels in their natural order (reports list any other level after them). */
const DABENCH_LEVELS = ['easy', 'medium', 'hard'] as const

/** One question's outcome for one arm, averaged over its trials. */
interface QuestionUnit {
  level: string
  concepts: string[]
  n: number
  /** Share of trials with the question right. */
  right: number
  /** Mean right sub-answers per trial. */
  k: number
}

/**
 * DABench's ABQ, PSAQ and UASQ per agent/model (and suite), overall, by level and by concept, from the records
 * of DABench cases (those carrying `dabench.subAnswers`). The unit is the question: a question's trials are
 * averaged first, and the intervals resample questions (2,000 percentile-bootstrap draws, seeded). Unlike
 * eval_closed_form.py, which leaves questions without a response out of every denominator, a question whose
 * run failed or answered nothing counts, with no sub-answer right.
 */
export function dabenchSummaries(records: readonly RunRecord[], seed = 0): DabenchSummary[] {
  const groups = new Map<
    string,
    {
      agent: string
      model: string | null
      suite: string
      failed: number
      byCase: Map<string, { level: string; runs: DabenchRun[] }>
    }
  >()
  for (const r of records) {
    if (r.status === 'skipped') continue
    const run = readDabenchRun(r)
    if (!run) continue
    const key = `${r.agent}\u0000${r.model ?? ''}\u0000${r.suite}`
    let g = groups.get(key)
    if (!g) {
      g = { agent: r.agent, model: r.model, suite: r.suite, failed: 0, byCase: new Map() }
      groups.set(key, g)
    }
    if (r.status === 'failed') g.failed++
    const c = g.byCase.get(r.caseId)
    if (c) c.runs.push(run)
    else g.byCase.set(r.caseId, { level: r.category ?? '—', runs: [run] })
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, g]) => {
      const units = [...g.byCase.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(
          ([, { level, runs }]): QuestionUnit => ({
            level,
            concepts: runs[0]!.concepts,
            n: runs[0]!.subAnswers,
            right: runs.filter((x) => x.correct).length / runs.length,
            k: runs.reduce((s, x) => s + x.subCorrect, 0) / runs.length,
          }),
        )
      const levels = [...new Set(units.map((u) => u.level))].sort(byLevel)
      const concepts = [...new Set(units.flatMap((u) => u.concepts))].sort()
      return {
        agent: g.agent,
        model: g.model,
        suite: g.suite,
        failedRuns: g.failed,
        overall: scoresOf(units, seed),
        byLevel: levels.map((level) => ({
          level,
          ...scoresOf(
            units.filter((u) => u.level === level),
            seed,
          ),
        })),
        byConcept: concepts.map((concept) => ({
          concept,
          ...scoresOf(
            units.filter((u) => u.concepts.includes(concept)),
            seed,
          ),
        })),
      }
    })
}

function byLevel(a: string, b: string): number {
  const rank = (x: string) => {
    const i = (DABENCH_LEVELS as readonly string[]).indexOf(x)
    return i < 0 ? DABENCH_LEVELS.length : i
  }
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)
}

/** The three metrics of these questions with intervals from one shared set of resamples. */
function scoresOf(units: readonly QuestionUnit[], seed: number): DabenchScores {
  const m = units.length
  const stat = (idx: ArrayLike<number>) => {
    let right = 0
    let share = 0
    let k = 0
    let n = 0
    for (let j = 0; j < idx.length; j++) {
      const u = units[idx[j]!]!
      right += u.right
      share += u.k / u.n
      k += u.k
      n += u.n
    }
    return [right / idx.length, share / idx.length, n === 0 ? 0 : k / n] as const
  }
  const all = Array.from({ length: m }, (_, i) => i)
  const [abq, psaq, uasq] = stat(all)
  const draws = [
    new Float64Array(DABENCH_BOOTSTRAP_ITERATIONS),
    new Float64Array(DABENCH_BOOTSTRAP_ITERATIONS),
    new Float64Array(DABENCH_BOOTSTRAP_ITERATIONS),
  ]
  const rng = new Random(seed)
  const idx = new Int32Array(m)
  for (let it = 0; it < DABENCH_BOOTSTRAP_ITERATIONS; it++) {
    for (let j = 0; j < m; j++) idx[j] = Math.floor(rng.next() * m)
    const s = stat(idx)
    for (let t = 0; t < 3; t++) draws[t]![it] = s[t]!
  }
  const rate = (point: number, d: Float64Array): DabenchRate => {
    d.sort()
    return { point, low: Math.min(point, quantileSorted(d, 0.025)), high: Math.max(point, quantileSorted(d, 0.975)) }
  }
  return {
    questions: m,
    subAnswers: units.reduce((s, u) => s + u.n, 0),
    abq: rate(abq, draws[0]!),
    psaq: rate(psaq, draws[1]!),
    uasq: rate(uasq, draws[2]!),
  }
}
