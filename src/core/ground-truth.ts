import type { DatasetInfo } from './dataset-info.js'
import { deepFreeze } from './freeze.js'
import type { AgentTask, Table } from './schemas.js'

/** One cell whose dirty value differs from its clean value. */
export interface Correction {
  row: number
  column: string
  dirty: string
  clean: string
  /** Corruption kind, where the generator recorded it (typo, null_placeholder, …). */
  kind?: string
}

export interface GroundTruth {
  corrections: Correction[]
  dataset: DatasetInfo
}

/**
 * The label wall. Ground truth is keyed by the task object in a module-private WeakMap, so nothing
 * reachable from the task (own or inherited keys, symbols, JSON, structured clones) leads to a clean value.
 * Only graders call `groundTruthOf`; privileged code goes through `revealTruth` (counted, see below), exported
 * only from the `dataforge-evals/testing` entry. The wall keeps honest in-process code honest; untrusted agents
 * run in their own process (src/isolation/), where no task object and no truth exists at all.
 *
 * The maps are one per realm, not per copy of this module: under native-ESM Jest the setup's matchers load the
 * CommonJS build and the eval file the ESM one, and a task made by one copy must be graded by the other.
 */
const WALL = Symbol.for('dataforge-evals.labelWall')
type WallHolder = { [WALL]?: { truths: WeakMap<AgentTask, GroundTruth>; revealed: WeakMap<AgentTask, number> } }
const holder = globalThis as WallHolder
holder[WALL] ??= { truths: new WeakMap(), revealed: new WeakMap() }
const wall = holder[WALL]
const truths = wall.truths

interface TaskInput {
  name: string
  dirty: Table
  metadata?: AgentTask['metadata']
  seed: number
}

/** Builds a deep-frozen task and files its ground truth behind the wall. */
export function createTask(input: TaskInput, truth: GroundTruth): AgentTask {
  const task: AgentTask = deepFreeze({
    name: input.name,
    dirty: { columns: [...input.dirty.columns], rows: input.dirty.rows },
    columns: [...input.dirty.columns],
    metadata: { ...(input.metadata ?? {}) },
    seed: input.seed,
  })
  // Frozen like the task: nothing changes a truth once filed, and the grader keeps its index per truth. A
  // correction holds only a number and strings, so freezing each one freezes it whole (10× deepFreeze's speed).
  if (!Object.isFrozen(truth.corrections)) {
    for (const correction of truth.corrections) Object.freeze(correction)
    Object.freeze(truth.corrections)
  }
  truths.set(task, truth)
  return task
}

/** How many times code other than the grader read each task's truth (the oracle, `dataforge-evals/testing`). */
const revealed = wall.revealed

/**
 * The truth, for privileged code (the mock oracle, harness tests). Each call is counted on the task, so a trial
 * whose agent read the truth, by whatever route, is recorded as an `oracle` run.
 */
export function revealTruth(task: AgentTask): GroundTruth {
  const truth = groundTruthOf(task)
  revealed.set(task, (revealed.get(task) ?? 0) + 1)
  return truth
}

/** A counter to compare before and after an agent runs: changed means the agent saw the truth. */
export function truthReveals(task: AgentTask): number {
  return revealed.get(task) ?? 0
}

export function hasGroundTruth(task: AgentTask): boolean {
  return truths.has(task)
}

export function groundTruthOf(task: AgentTask): GroundTruth {
  const truth = truths.get(task)
  if (!truth) {
    throw new Error(
      `task "${task?.name}" has no ground truth: grade the task object created by a dataset loader or createRepairTask(), not a copy of it`,
    )
  }
  return truth
}

/** Every cell whose strings differ, compared by position; column names come from `clean`. */
export function diffTables(dirty: Table, clean: Table, skipColumns: ReadonlySet<string> = new Set()): Correction[] {
  const out: Correction[] = []
  for (let r = 0; r < clean.rows.length; r++) {
    const d = dirty.rows[r]!
    const c = clean.rows[r]!
    for (let j = 0; j < clean.columns.length; j++) {
      const column = clean.columns[j]!
      if (skipColumns.has(column)) continue
      if (d[j] !== c[j]) out.push({ row: r, column, dirty: d[j]!, clean: c[j]! })
    }
  }
  return out
}
