import { BUILT_IN_QA_SUITES } from '../datasets/questions/types.js'
import { groupName, type GroupKey } from './aggregate.js'

/*
 * The groups the baseline gate compares. A report's rows are agent/model × suite × dataset × category; the gate
 * pairs the same rows, except that a built-in question suite gates as one group: its categories hold 2–4 cases
 * each, too few for any paired test to reach α (docs/statistics.md), so gated one by one they could never fail
 * and warned on every run. Its categories stay rows of every report.
 */

const PER_SUITE: ReadonlySet<string> = new Set(BUILT_IN_QA_SUITES)

type Identity = Pick<GroupKey, 'suite' | 'dataset' | 'category'>

/** Whether the row belongs to a built-in question suite (as `qa` and `qaSuite('name')` record it). */
export function gatesPerSuite(row: Identity): boolean {
  return row.category !== null && row.dataset === row.suite && PER_SUITE.has(row.suite)
}

/** The row as the gate groups it: a built-in suite's row without its category; any other row as it is. */
export function asGateRow<T extends Identity>(row: T): T {
  return gatesPerSuite(row) ? { ...row, category: null } : row
}

/** The name of the gate group a report row belongs to (`mock-qa · bespoke` for `mock-qa · bespoke · filter`). */
export function gateGroupName(key: GroupKey): string {
  return groupName(asGateRow(key))
}
