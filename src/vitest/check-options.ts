import { InputError } from '../core/errors.js'

/** Usage checks for `evalCase` and `conversation`: errors name the helper, the case and the option at fault. */

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

function checkName(helper: string, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') throw new InputError(`${helper}(): the name must be a non-empty string, got ${show(name)}`)
}

function checkCommon(where: string, options: { seed?: unknown; timeout?: unknown }): void {
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new InputError(`${where}: seed must be an integer, got ${show(options.seed)}`)
  if (options.timeout !== undefined && !(typeof options.timeout === 'number' && options.timeout > 0 && Number.isFinite(options.timeout))) {
    throw new InputError(`${where}: timeout must be a positive number of milliseconds, got ${show(options.timeout)}`)
  }
}

export function checkEvalCaseArgs(
  name: unknown,
  options: { dataset?: unknown; task?: unknown; agent?: unknown; trials?: unknown; seed?: unknown; timeout?: unknown } | undefined,
  body: unknown,
): void {
  checkName('evalCase', name)
  const where = `evalCase "${name}"`
  if (typeof options !== 'object' || options === null) throw new InputError(`${where}: options must be an object with an agent and a dataset or task`)
  if (options.agent === undefined || options.agent === null || options.agent === '') throw new InputError(`${where}: agent is required (a name like "baseline", a module path or an agent object)`)
  if (options.dataset === undefined && options.task === undefined) throw new InputError(`${where}: give a dataset or a task`)
  if (options.dataset !== undefined && options.task !== undefined) throw new InputError(`${where}: give a dataset or a task, not both`)
  if (options.trials !== undefined && !(Number.isInteger(options.trials) && (options.trials as number) >= 1)) {
    throw new InputError(`${where}: trials must be a positive integer, got ${show(options.trials)}`)
  }
  checkCommon(where, options)
  if (typeof body !== 'function') throw new InputError(`${where}: the last argument must be the eval body, a function`)
}

export function checkConversationArgs(name: unknown, options: { data?: unknown; agent?: unknown; seed?: unknown; timeout?: unknown } | undefined, turns: unknown): void {
  checkName('conversation', name)
  const where = `conversation "${name}"`
  if (typeof options !== 'object' || options === null) throw new InputError(`${where}: options must be an object with data and an agent`)
  if (options.data === undefined || options.data === null) throw new InputError(`${where}: data is required`)
  const agent = options.agent as { session?: unknown; command?: unknown } | string | undefined
  const isSpec = (typeof agent === 'string' && agent !== '') || Array.isArray((agent as { command?: unknown } | undefined)?.command)
  if (!isSpec && typeof (agent as { session?: unknown } | undefined)?.session !== 'function') {
    throw new InputError(`${where}: agent must be a data agent with session(tables), a module path, or a command`)
  }
  checkCommon(where, options)
  if (!Array.isArray(turns) || turns.length === 0) throw new InputError(`${where}: turns must be a non-empty list of [question, check] pairs`)
  turns.forEach((turn, i) => {
    if (!Array.isArray(turn) || typeof turn[0] !== 'string' || typeof turn[1] !== 'function') {
      throw new InputError(`${where}: turns[${i}] must be [question, check] with a string question and a check function`)
    }
  })
}
