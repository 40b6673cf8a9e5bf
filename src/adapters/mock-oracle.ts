import type { RepairAgent } from '../core/agent.js'
import { groundTruthOf } from '../core/ground-truth.js'
import type { Fix } from '../core/schemas.js'

/**
 * PRIVILEGED: the only agent allowed behind the label wall. It returns the ground truth, so its F1 is 1 by
 * construction; use it to test the harness itself, never as a result.
 */
export const mockAgent: RepairAgent & { privileged: true } = {
  name: 'mock',
  kind: 'oracle',
  privileged: true,
  run(task) {
    return groundTruthOf(task).corrections.map((c): Fix => ({ row: c.row, column: c.column, newValue: c.clean }))
  },
}

/** Proposes nothing: the floor every agent should beat. */
export const noopAgent: RepairAgent = {
  name: 'noop',
  kind: 'baseline',
  run() {
    return []
  },
}
