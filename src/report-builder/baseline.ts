import { groupBy } from '../core/group-by.js'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import type { RunRecord } from '../core/run-record.js'
import { meanOrNull } from '../stats/quantile.js'
import { type Aggregate, groupName } from './aggregate.js'
import { type ComparableRun, compareRuns, type PairedGroupComparison } from './compare.js'
import type { BaselineFile, BaselineGroup } from './baseline-schema.js'
import { newGroupLine, verdictLine } from './comparison-verdict.js'
import { compareText } from '../core/order.js'
import { readRunRecords } from '../files/read-runs.js'

export type { BaselineFile, BaselineGroup }

export interface BaselineOptions {
  /** Significance level of the regression tests. Default 0.05. */
  alpha?: number
  /** Absolute Score floor: a group below it fails whatever the tests say. */
  floor?: number
  /**
   * A deterministic change (one unit, every trial identical) fails when Score or F1 drops by more than this.
   * Default 0: any deterministic drop fails.
   */
  minDelta?: number
}

type GroupIdentity = Pick<BaselineGroup, 'agent' | 'model' | 'suite' | 'dataset' | 'category'>

function identityKey(g: GroupIdentity): string {
  return JSON.stringify([g.suite, g.dataset, g.category ?? '', g.agent, g.model ?? ''])
}

const byIdentity = (x: GroupIdentity, y: GroupIdentity) => compareText(identityKey(x), identityKey(y))

/** The baseline of a run: its executed runs, grouped and sorted. */
export function baselineFromRecords(records: readonly RunRecord[]): BaselineFile {
  const groups = new Map<string, BaselineGroup>()
  for (const r of records) {
    if (r.status === 'skipped') continue
    const id = { agent: r.agent, model: r.model, suite: r.suite, dataset: r.dataset, category: r.category }
    const key = identityKey(id)
    let g = groups.get(key)
    if (!g) {
      g = { group: groupName(r), ...id, runs: [] }
      groups.set(key, g)
    }
    g.runs.push({
      case: r.caseId,
      turn: r.turn,
      trial: r.trial,
      correct: r.correct,
      f1: r.f1,
      tp: r.tp,
      fp: r.fp,
      fn: r.fn,
      datasetSha256: r.datasetSha256,
    })
  }
  return { baselineVersion: 1, groups: sortGroups([...groups.values()]) }
}

function sortGroups(groups: BaselineGroup[]): BaselineGroup[] {
  const byRun = (x: BaselineGroup['runs'][number], y: BaselineGroup['runs'][number]) =>
    x.case < y.case ? -1 : x.case > y.case ? 1 : (x.turn ?? -1) - (y.turn ?? -1) || x.trial - y.trial
  return groups.sort(byIdentity).map((g) => ({ ...g, runs: [...g.runs].sort(byRun) }))
}

/**
 * Updating from a filtered run: the groups this run executed replace theirs; the groups it did not run are kept
 * as they were. Returns the merged file and the names of the kept groups.
 */
export function mergeBaseline(
  existing: BaselineFile | null,
  fresh: BaselineFile,
): { file: BaselineFile; kept: string[] } {
  const ran = new Set(fresh.groups.map(identityKey))
  const kept = (existing?.groups ?? []).filter((g) => !ran.has(identityKey(g)))
  return {
    file: { baselineVersion: 1, groups: sortGroups([...fresh.groups, ...kept]) },
    kept: kept.map((g) => g.group),
  }
}

/** Stable JSON with a trailing newline: keys in schema order, one line per run, so a diff shows the runs that changed. */
export function renderBaseline(file: BaselineFile): string {
  const groups = file.groups.map((g) => {
    const { runs, ...identity } = g
    const head = Object.entries(identity).map(([k, v]) => `      ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
    const rows = runs.map((r, i) => `        ${JSON.stringify(r)}${i < runs.length - 1 ? ',' : ''}`)
    return ['    {', ...head, '      "runs": [', ...rows, '      ]', '    }'].join('\n')
  })
  return `{\n  "baselineVersion": ${file.baselineVersion},\n  "groups": [\n${groups.join(',\n')}\n  ]\n}\n`
}

/** The runs of a baseline in the shape paired comparisons read. */
export function baselineRuns(file: BaselineFile): ComparableRun[] {
  return file.groups.flatMap((g) =>
    g.runs.map((r) => ({
      caseId: r.case,
      turn: r.turn,
      trial: r.trial,
      agent: g.agent,
      model: g.model,
      dataset: g.dataset,
      suite: g.suite,
      category: g.category,
      correct: r.correct,
      f1: r.f1,
      datasetSha256: r.datasetSha256,
    })),
  )
}

/**
 * The runs of one side of a comparison: a report.json, a runs.jsonl, a folder holding one, or a baseline.json
 * (the reporter's baseline). `compare` and `report --baseline` read their inputs through this one function.
 */
export async function readComparableRuns(path: string): Promise<Array<ComparableRun & { armId?: string }>> {
  if (path.endsWith('.json')) {
    const head = await readFile(path, 'utf8').then(
      (t) => t.slice(0, 200),
      () => '',
    )
    if (/"baselineVersion"/.test(head)) return baselineRuns((await readBaseline(path))!)
  }
  return readRunRecords(path)
}

/**
 * Reads baseline.json; null when there is none. A baseline written by earlier versions (a whole report.json)
 * is read too. Errors name the file and the field. The schemas (zod) load here, when there is a file to check:
 * a run without a baseline file never loads them.
 */
export async function readBaseline(path: string): Promise<BaselineFile | null> {
  if (!existsSync(path)) return null
  const text = await readFile(path, 'utf8')
  let parsed: unknown
  checkJsonDepth(text, (line) => `${path}: line ${line}`)
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new InputError(`${path}: not valid JSON (${(error as Error).message})`)
  }
  if (parsed && typeof parsed === 'object' && 'records' in parsed) {
    const { parseRunRecords } = await import('../files/read-runs.js')
    return baselineFromRecords(parseRunRecords(text, path))
  }
  const { BaselineFileSchema } = await import('./baseline-schema.js')
  const result = BaselineFileSchema.safeParse(parsed)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  throw new InputError(
    `${path}: field "${issue?.path.map(String).join('.') || '(file)'}": ${issue?.message ?? 'invalid baseline'}`,
  )
}

export interface GroupDelta {
  group: string
  /** null for a new group (no counterpart in the baseline). */
  before: { f1: number | null; passRate: number | null } | null
  after: { f1: number | null; passRate: number | null }
  /** The paired tests; null when the baseline had nothing to pair with. */
  verdict: PairedGroupComparison | null
  status: 'compared' | 'new'
  failed: boolean
  /** One line naming the tests, their p, the deltas and, where it applies, the power shortfall. */
  message: string
}

/**
 * Per-group deltas of the current run against earlier runs, each with its paired tests. Pairs only an
 * agent with itself. Skipped runs take no part: a group filtered out of this run is not compared, and a
 * skipped trial is neither a regression nor a missing judgment. A group with no counterpart is `new`, never a
 * failure. Throws the comparison's InputError when the two sides cannot be compared (a dataset's sha256 changed).
 */
export function groupDeltas(
  before: readonly ComparableRun[],
  after: { aggregates: readonly Aggregate[]; records: readonly RunRecord[] },
  options: BaselineOptions & { against?: string } = {},
): GroupDelta[] {
  const afterRecords = after.records.filter((r) => r.status !== 'skipped')
  const alpha = options.alpha ?? 0.05
  const floor = options.floor ?? null
  const against = options.against ?? 'baseline'
  const cmp = compareRuns(before, afterRecords, {
    pairing: 'same-arm',
    gateOverall: false,
    labelA: against,
    labelB: 'current',
    alpha,
    ...(floor === null ? {} : { floor }),
    ...(options.minDelta === undefined ? {} : { minDelta: options.minDelta }),
  })
  const verdicts = new Map(cmp.groups.map((g) => [identityKey(g.key as GroupIdentity), g]))
  const beforeRows = groupBy(before, identityKey)
  return after.aggregates
    .filter((a) => a.trialsRequested > a.trialsSkipped)
    .map((a) => {
      const key = identityKey(a)
      const rows = beforeRows.get(key)
      const verdict = verdicts.get(key) ?? null
      const status = rows?.length ? 'compared' : 'new'
      const settings = { alpha, floor, against }
      return {
        group: a.group,
        before: rows?.length ? summarizeRows(rows) : null,
        after: { f1: a.f1Mean, passRate: a.passRate },
        verdict,
        status,
        failed: status === 'compared' && (verdict?.failed ?? false),
        message: verdict ? verdictLine({ ...verdict, group: a.group }, settings) : newGroupLine(a.group, against),
      }
    })
}

function summarizeRows(rows: readonly ComparableRun[]): { f1: number | null; passRate: number | null } {
  return {
    f1: meanOrNull(rows.flatMap((r) => (r.f1 === null ? [] : [r.f1]))),
    passRate: rows.length ? rows.filter((r) => r.correct === true).length / rows.length : null,
  }
}

/**
 * The baseline gate on raw runs: per group (an agent paired only with itself), fail when the current runs are
 * significantly worse on pass/fail or on F1, or below the floor. A group without baseline rows is new.
 */
export function regressionVerdict(
  baseline: readonly ComparableRun[],
  current: readonly ComparableRun[],
  options: BaselineOptions & { seed?: number } = {},
): Array<PairedGroupComparison & { message: string }> {
  const cmp = compareRuns(baseline, current, {
    ...options,
    pairing: 'same-arm',
    gateOverall: false,
    labelA: 'baseline',
    labelB: 'current',
  })
  const settings = { alpha: cmp.alpha, floor: cmp.floor, against: 'baseline' }
  return cmp.groups.map((g) => ({ ...g, message: verdictLine(g, settings) }))
}
