import type { DatasetInfo } from '../core/dataset-info.js'
import type { AgentTask, Table } from '../core/schemas.js'
import { tableProblem } from '../core/table-check.js'
import { InputError } from '../core/errors.js'
import { csvDigest } from './csv-digest.js'
import { buildPairTask } from './pair.js'

/**
 * A repair task from two in-memory tables (same shape; names from `clean`): the ground truth is every differing
 * cell outside id columns, filed behind the label wall. Digests are of the tables' CSV serialization.
 */
export function createRepairTask(input: { name: string; dirty: Table; clean: Table; seed?: number }): {
  task: AgentTask
  info: DatasetInfo
} {
  for (const side of ['dirty', 'clean'] as const) {
    const problem = tableProblem(input[side])
    if (problem)
      throw new InputError(`createRepairTask(${input.name}).${[side, ...problem.path].join('.')}: ${problem.message}`)
  }
  const { task, info } = buildPairTask({
    id: input.name,
    origin: 'csv-pair',
    source: 'in-memory tables',
    seed: input.seed ?? 0,
    dirty: { table: input.dirty, digest: csvDigest(input.dirty), label: `${input.name} (dirty)` },
    clean: { table: input.clean, digest: csvDigest(input.clean), label: `${input.name} (clean)` },
  })
  return { task, info }
}
