import type { RepairAgent, RunContext } from '../../core/agent.js'
import type { AgentRunResult, AgentTask, Fix } from '../../core/schemas.js'
import {
  DEFAULT_DEPENDENCY_OPTIONS,
  type DependencyOptions,
  discoverDependencies,
  voteWithDependencies,
} from './dependencies.js'
import { unifyDates } from './date-formats.js'
import { normalizeUnitNumbers, numericNullPlaceholders, roundFloatNoise, stripDecorations } from './formats.js'
import { padLeadingZeros, unifyDecimals, unifyPhones } from './number-formats.js'
import { unifyCaseAndSpacing } from './spelling.js'
import { DEFAULT_TYPO_OPTIONS, repairTypos, type TypoOptions } from './typos.js'
import { applyProposals, type Proposal, type WorkingTable, workingTableOf } from './working-table.js'

type BaselinePhase =
  | 'nullPlaceholders'
  | 'unitNumbers'
  | 'decorations'
  | 'floatNoise'
  | 'numbers'
  | 'dates'
  | 'phones'
  | 'spelling'
  | 'dependencies'
  | 'typos'

/** The format phases, in the order they run: each rewrites values by themselves, one column at a time. */
const FORMAT_PHASES: readonly [BaselinePhase, (table: WorkingTable) => Proposal[]][] = [
  ['nullPlaceholders', (t) => numericNullPlaceholders(t)],
  ['unitNumbers', (t) => normalizeUnitNumbers(t)],
  ['decorations', (t) => stripDecorations(t)],
  ['floatNoise', roundFloatNoise],
  ['numbers', (t) => [...unifyDecimals(t), ...padLeadingZeros(t)]],
  ['dates', (t) => unifyDates(t)],
  ['phones', (t) => unifyPhones(t)],
  ['spelling', (t) => unifyCaseAndSpacing(t)],
]

const BASELINE_PHASES: readonly BaselinePhase[] = [...FORMAT_PHASES.map(([name]) => name), 'dependencies', 'typos']

interface BaselineOptions {
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
 * 1. `nullPlaceholders`: systematic `N/A`-like text in a numeric column becomes empty.
 * 2. `unitNumbers`: numbers with an inconsistently spelled unit become bare numbers.
 * 3. `decorations`: values differing from a column's dominant format only by `%`/currency symbols lose them.
 * 4. `floatNoise`: decimals printed with binary floating-point noise are rounded (`0.052000000000000005`).
 * 5. `numbers`: decimal commas, surplus trailing zeros, float suffixes on integers, lost leading zeros.
 * 6. `dates`: dates in a minority layout are rewritten in the column's dominant layout.
 * 7. `phones`: ten-digit phone numbers are rewritten in the column's dominant layout.
 * 8. `spelling`: case and spacing variants take the column's usual spelling.
 * 9. `dependencies`: approximate functional dependencies are discovered and minority values (and nulls) in a
 *    group are replaced by the group's majority value.
 * 10. `typos`: in low-cardinality columns, rare values a few edits from (or truncations of) a much more frequent
 *    one take it; when that changed anything, `dependencies` runs once more on the improved groups.
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
      for (const [name, phase] of FORMAT_PHASES) {
        if (!phases.has(name)) continue
        apply(phase(table))
        await pause()
      }
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
      fixes.push({
        row: r,
        column: table.columns[col]!,
        newValue: value,
        reason: reasons.get(r * nCols + col) ?? 'repaired',
      })
    }
  }
  return fixes
}
