import type { SnapshotTrapOptions } from '../adapters/data-agent/snapshot-trap.js'
import { trajectoryOf } from '../grading/trajectory.js'
import { concludeGrade, type MatcherContext, type MatcherOutcome } from './conclude.js'

/**
 * `await expect(ctx.trajectory()).toAvoidSnapshotTrap(answer, { tables })`: the answer was computed by the agent's
 * SQL over the full table, not read from the sample rows it was shown. The check (and DuckDB) loads on first use.
 */
export async function toAvoidSnapshotTrap(
  this: MatcherContext,
  received: unknown,
  answer: unknown,
  opts: SnapshotTrapOptions,
): Promise<MatcherOutcome> {
  const trajectory = trajectoryOf(received, 'toAvoidSnapshotTrap')
  const { checkSnapshotTrap } = await import('../adapters/data-agent/snapshot-trap.js')
  return concludeGrade(this, 'toAvoidSnapshotTrap', await checkSnapshotTrap(answer, trajectory, opts))
}
