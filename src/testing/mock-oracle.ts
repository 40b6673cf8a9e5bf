import type { RepairAgent } from '../core/agent.js'
import { revealTruth } from '../core/ground-truth.js'
import type { Fix } from '../core/schemas.js'

/**
 * PRIVILEGED: the oracle. It returns the ground truth, so its F1 is 1 by construction; use it to test the
 * harness itself, never as a result. Every run that reads the truth through it is recorded as `oracle`.
 */
export const mockAgent: RepairAgent & { privileged: true } = {
  name: 'mock',
  kind: 'oracle',
  privileged: true,
  run(task) {
    return revealTruth(task).corrections.map((c): Fix => ({ row: c.row, column: c.column, newValue: c.clean }))
  },
}
