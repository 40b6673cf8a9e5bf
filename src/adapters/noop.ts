import type { RepairAgent } from '../core/agent.js'

/** Proposes nothing: the floor every agent should beat. */
export const noopAgent: RepairAgent = {
  name: 'noop',
  kind: 'baseline',
  run() {
    return []
  },
}
