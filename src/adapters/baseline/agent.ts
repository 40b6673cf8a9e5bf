import type { RepairAgent, RunContext } from '../../core/agent.js'
import type { AgentRunResult, AgentTask, Fix } from '../../core/schemas.js'
import {
  DEFAULT_DEPENDENCY_OPTIONS,
  type DependencyOptions,
  discoverDependencies,
  voteWithDependencies,
} from './dependencies.js'
import { normalizeUnitNumbers, numericNullPlaceholders, roundFloatNoise, stripDecorations } from './formats.js'
import { DEFAULT_TYPO_OPTIONS, repairTypos, type TypoOptions } from './typos.js'
import { applyProposals, type Proposal, type WorkingTable, workingTableOf } from './working-table.js'

export type BaselinePhase = 'nullPlaceholders' | 'unitNumbers' | 'decorations' | 'floatNoise' | 'dependencies' | 'typos'

export const BASELINE_PHASES: readonly BaselinePhase[] = [
  'nullPlaceholders',
  'unitNumbers',
  'decorations',
  'floatNoise',
  'dependencies',
  'typos',
]

export interface BaselineOptions {
  /** Agent name in reports; default `baseline`. */
  name?: string
  /** Phases to run, in their fixed order; default all. */
  phases?: readonly BaselinePhase[]
  dependencies?: Partial<DependencyOptions>
  typos?: Partial<TypoOptions>
}

/**
 * A deterministic, non-LLM repairer that works from the dirty table alone (`task.dirty`, `task.columns`,
 * `task.metadata.idColumns`; never the ground truth). Phases, each applied to the result of the one before:
 *
 * 1. `nullPlaceholders`: `N/A`-like text in a numeric column becomes empty.
 * 2. `unitNumbers`: numbers with an inconsistently spelled unit become bare numbers.
 * 3. `decorations`: values differing from a column's dominant format only by `%`/currency/quote symbols lose them.
 * 4. `floatNoise`: decimals printed with binary floating-point noise are rounded (`0.052000000000000005`).
 * 5. `dependencies`: approximate functional dependencies are discovered and minority values (and nulls) in a
 *    group are replaced by the group's majority value.
 * 6. `typos`: rare values a few edits from a much more frequent one in low-cardinality columns are respelled;
 *    when that changed anything, `dependencies` runs once more on the improved groups.
 *
 * Every rule proposes a value only where the data make it likely; it prefers proposing nothing to guessing.
 * Id columns are never changed. The output is sorted by row, then column position.
 */
export function createBaselineAgent(opts: BaselineOptions = {}): RepairAgent {
  const phases = new Set(opts.phases ?? BASELINE_PHASES)
  const depOptions: DependencyOptions = { ...DEFAULT_DEPENDENCY_OPTIONS, ...opts.dependencies }
  const typoOptions: TypoOptions = { ...DEFAULT_TYPO_OPTIONS, ...opts.typos }
  return {
    name: opts.name ?? 'baseline',
    kind: 'baseline',
    async run(task: AgentTask, ctx?: RunContext): Promise<AgentRunResult> {
      const signal = ctx?.signal
      const checkpoint = () => signal?.throwIfAborted()
      // yield between phases so that a timeout's abort can land
      const pause = async () => {
        await new Promise<void>((resolve) => setImmediate(resolve))
        checkpoint()
      }
      checkpoint()
      const table = workingTableOf(task.dirty, idColumnsOf(task))
      const reasons = new Map<number, string>()
      let steps = 0
      const apply = (proposals: Proposal[]) => {
        steps++
        return applyProposals(table, proposals, reasons)
      }
      if (phases.has('nullPlaceholders')) apply(numericNullPlaceholders(table))
      if (phases.has('unitNumbers')) apply(normalizeUnitNumbers(table))
      if (phases.has('decorations')) apply(stripDecorations(table))
      if (phases.has('floatNoise')) apply(roundFloatNoise(table))
      await pause()
      const dependencies = async () => {
        const model = discoverDependencies(table, depOptions, checkpoint)
        await pause()
        apply(voteWithDependencies(table, model, depOptions, checkpoint))
        await pause()
      }
      if (phases.has('dependencies')) await dependencies()
      if (phases.has('typos')) {
        const changed = apply(repairTypos(table, typoOptions))
        await pause()
        if (changed > 0 && phases.has('dependencies')) await dependencies()
      }
      return { fixes: fixesOf(task, table, reasons), steps }
    },
  }
}

/** The baseline with its default options. */
export const baselineAgent: RepairAgent = createBaselineAgent()

function idColumnsOf(task: AgentTask): string[] {
  const ids = task.metadata['idColumns']
  if (Array.isArray(ids)) return ids
  if (typeof ids === 'string') return [ids]
  return []
}

function fixesOf(task: AgentTask, table: WorkingTable, reasons: ReadonlyMap<number, string>): Fix[] {
  const nCols = table.columns.length
  const fixes: Fix[] = []
  for (let r = 0; r < table.nRows; r++) {
    const dirtyRow = task.dirty.rows[r]!
    for (const col of table.repairable) {
      const value = table.cells[col]![r]!
      if (value === (dirtyRow[col] ?? '')) continue
      fixes.push({ row: r, column: table.columns[col]!, newValue: value, reason: reasons.get(r * nCols + col) ?? 'repaired' })
    }
  }
  return fixes
}
