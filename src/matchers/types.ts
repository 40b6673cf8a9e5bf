import type { Grader } from '../core/answer.js'
import type { AgentTask, Table } from '../core/schemas.js'
import type { Budget } from '../grading/budget.js'
import type { ChartOptions, ContainsOptions, NumericOptions, TableEqualsOptions } from '../grading/answers/index.js'
import type { RepairThresholds } from './repair.js'
import type { ConformanceSpec } from '../grading/conformance/spec.js'
import type { DistributionMatcherOptions } from './distribution.js'
import type { CallsOptions, CallToolsOptions, ExpectedTool } from '../grading/trajectory.js'
import type { SnapshotTrapOptions } from '../adapters/data-agent/snapshot-trap.js'

/** The dataforge matchers as they appear on `expect(x)`. */
export interface DataforgeMatchers<R = void> {
  /** Grades fixes exactly against the task's hidden ground truth; default bar F1 = 1. */
  toRepairCells(task: AgentTask, thresholds?: RepairThresholds): R
  toBeNumeric(expected: number, opts?: NumericOptions): R
  toContainAnswer(expected: string | string[], opts?: ContainsOptions): R
  toExactlyEqual(expected: unknown): R
  toEqualTable(expected: Table | Record<string, unknown>[], opts?: TableEqualsOptions): R
  toRefuse(): R
  toProduceChart(opts?: ChartOptions): R
  /** Any grader or composition; await it when the grader is async. */
  toPass(grader: Grader): R | Promise<void>
  toStayWithinBudget(budget: Budget): R
  /** Conformance of generated samples to a requested distribution; await it with a model classifier. */
  toMatchDistribution(spec: ConformanceSpec, opts?: DistributionMatcherOptions): R | Promise<void>
  /** On a trajectory (`ctx.trajectory()`, a RunRecord): the listed tools were called (in order, exactly: options). */
  toCallTools(tools: readonly ExpectedTool[], opts?: CallToolsOptions): R
  /** On a trajectory: at most `n` steps (model calls the gateway saw, else the agent's reported steps). */
  toUseAtMostSteps(n: number): R
  /** On a trajectory: at most `n` tool calls (of one tool with `{ tool }`). */
  toUseAtMostCalls(n: number, opts?: CallsOptions): R
  /** On a trajectory: the answer is in the result of one of its SQL queries over the full tables, not over the sample rows. */
  toAvoidSnapshotTrap(answer: unknown, opts: SnapshotTrapOptions): Promise<void>
}
