import { boundedEditDistance } from '../adapters/baseline/edit-distance.js'
import { InputError } from '../core/errors.js'

/** Usage checks for `evalCase`, `conversation` and `qaSuite`: errors name the helper, the case and the option at fault. */

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

/** Options each helper accepts; anything else is a typo (`trails: 3`) that JavaScript would silently ignore. */
const EVAL_CASE_OPTIONS = [
  'dataset',
  'task',
  'agent',
  'isolate',
  'agentMemoryMb',
  'trials',
  'seed',
  'timeout',
  'category',
  'tags',
  'generation',
  'llm',
] as const
const CONVERSATION_OPTIONS = [
  'data',
  'agent',
  'isolate',
  'suite',
  'category',
  'seed',
  'generation',
  'timeout',
  'llm',
] as const
const QA_SUITE_OPTIONS = [
  'agent',
  'trials',
  'seed',
  'name',
  'timeout',
  'generation',
  'dataDir',
  'limit',
  'llm',
] as const

/** Matcher → [index of its options argument after the received value, the options it accepts]. */
const MATCHER_OPTIONS: Readonly<Record<string, readonly [number, readonly string[]]>> = {
  toRepairCells: [2, ['minF1', 'minPrecision', 'minRecall']],
  toBeNumeric: [2, ['tol', 'relTol', 'percentAsFraction']],
  toContainAnswer: [2, ['mode']],
  toEqualTable: [2, ['ignoreRowOrder', 'ignoreColumnOrder', 'tol']],
  toProduceChart: [1, ['mark', 'encodings']],
  toStayWithinBudget: [1, ['tokens', 'usd', 'calls', 'quotaUnits']],
  toMatchDistribution: [2, ['classify', 'minScore', 'alpha']],
  toCallTools: [2, ['order', 'exact', 'source']],
  toUseAtMostCalls: [2, ['tool', 'source']],
  toAvoidSnapshotTrap: [2, ['tables', 'sampleRows', 'engine']],
}

/** Refuses keys outside `known`, naming the option, where it was given and, for a near miss, the intended one. */
function rejectUnknownOptions(where: string, options: unknown, known: readonly string[]): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue
    const near = known.find((k) => boundedEditDistance(k.toLowerCase(), key.toLowerCase(), 2) <= 2)
    throw new InputError(
      `${where}: unknown option "${key}"${near ? ` (did you mean "${near}"?)` : ''}; known options: ${known.join(', ')}`,
    )
  }
}

/** The matcher's options argument, checked by `rejectUnknownOptions`; matchers without options pass. */
export function checkMatcherOptions(matcher: string, args: readonly unknown[]): void {
  const spec = MATCHER_OPTIONS[matcher]
  if (spec) rejectUnknownOptions(matcher, args[spec[0]], spec[1])
}

function checkName(helper: string, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '')
    throw new InputError(`${helper}(): the name must be a non-empty string, got ${show(name)}`)
}

function checkCommon(where: string, options: { seed?: unknown; timeout?: unknown }): void {
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed))
    throw new InputError(`${where}: seed must be an integer, got ${show(options.seed)}`)
  if (
    options.timeout !== undefined &&
    !(typeof options.timeout === 'number' && options.timeout > 0 && Number.isFinite(options.timeout))
  ) {
    throw new InputError(`${where}: timeout must be a positive number of milliseconds, got ${show(options.timeout)}`)
  }
}

export function checkEvalCaseArgs(
  name: unknown,
  options:
    | { dataset?: unknown; task?: unknown; agent?: unknown; trials?: unknown; seed?: unknown; timeout?: unknown }
    | undefined,
  body: unknown,
): void {
  checkName('evalCase', name)
  const where = `evalCase "${name}"`
  if (typeof options !== 'object' || options === null)
    throw new InputError(`${where}: options must be an object with an agent and a dataset or task`)
  rejectUnknownOptions(where, options, EVAL_CASE_OPTIONS)
  if (options.agent === undefined || options.agent === null || options.agent === '')
    throw new InputError(`${where}: agent is required (a name like "baseline", a module path or an agent object)`)
  if (options.dataset === undefined && options.task === undefined)
    throw new InputError(`${where}: give a dataset or a task`)
  if (options.dataset !== undefined && options.task !== undefined)
    throw new InputError(`${where}: give a dataset or a task, not both`)
  if (options.trials !== undefined && !(Number.isInteger(options.trials) && (options.trials as number) >= 1)) {
    throw new InputError(`${where}: trials must be a positive integer, got ${show(options.trials)}`)
  }
  checkCommon(where, options)
  if (typeof body !== 'function') throw new InputError(`${where}: the last argument must be the eval body, a function`)
}

export function checkConversationArgs(
  name: unknown,
  options: { data?: unknown; agent?: unknown; seed?: unknown; timeout?: unknown } | undefined,
  turns: unknown,
): void {
  checkName('conversation', name)
  const where = `conversation "${name}"`
  if (typeof options !== 'object' || options === null)
    throw new InputError(`${where}: options must be an object with data and an agent`)
  rejectUnknownOptions(where, options, CONVERSATION_OPTIONS)
  if (options.data === undefined || options.data === null) throw new InputError(`${where}: data is required`)
  const agent = options.agent as { session?: unknown; command?: unknown } | string | undefined
  const isSpec =
    (typeof agent === 'string' && agent !== '') || Array.isArray((agent as { command?: unknown } | undefined)?.command)
  if (!isSpec && typeof (agent as { session?: unknown } | undefined)?.session !== 'function') {
    throw new InputError(`${where}: agent must be a data agent with session(tables), a module path, or a command`)
  }
  checkCommon(where, options)
  if (!Array.isArray(turns) || turns.length === 0)
    throw new InputError(`${where}: turns must be a non-empty list of [question, check] pairs`)
  turns.forEach((turn, i) => {
    if (!Array.isArray(turn) || typeof turn[0] !== 'string' || typeof turn[1] !== 'function') {
      throw new InputError(
        `${where}: turns[${i}] must be [question, check] with a string question and a check function`,
      )
    }
  })
}

/** `qaSuite`'s options (Vitest and Jest): unknown keys, trials, seed, timeout, name, limit and dataDir. */
export function checkQaSuiteOptions(options: unknown): void {
  const where = 'qaSuite'
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new InputError(`${where}: options must be an object with an agent`)
  rejectUnknownOptions(where, options, QA_SUITE_OPTIONS)
  const o = options as {
    trials?: unknown
    seed?: unknown
    timeout?: unknown
    name?: unknown
    limit?: unknown
    dataDir?: unknown
  }
  if (o.trials !== undefined && !(Number.isInteger(o.trials) && (o.trials as number) >= 1))
    throw new InputError(`${where}: trials must be a positive integer, got ${show(o.trials)}`)
  checkCommon(where, o)
  if (o.name !== undefined && (typeof o.name !== 'string' || o.name.trim() === ''))
    throw new InputError(`${where}: name must be a non-empty string, got ${show(o.name)}`)
  if (o.limit !== undefined && !(Number.isInteger(o.limit) && (o.limit as number) >= 1))
    throw new InputError(`${where}: limit must be a positive integer, got ${show(o.limit)}`)
  if (o.dataDir !== undefined && (typeof o.dataDir !== 'string' || o.dataDir === ''))
    throw new InputError(`${where}: dataDir must be a folder path, got ${show(o.dataDir)}`)
}
