import type { GradeResult } from '../core/answer.js'
import { InputError } from '../core/errors.js'
import type { LlmCall } from '../core/llm.js'
import type { RecordToolCall } from '../core/transcript.js'

/**
 * What a trial did on its way to an answer: the model calls the gateway served, the tool calls (asked for by the
 * model, or run by the agent itself) in order, and its steps. Pure checks over it; no I/O.
 */
export interface Trajectory {
  modelCalls: readonly LlmCall[]
  toolCalls: readonly RecordToolCall[]
  /** Model calls when the gateway saw any; else the steps the agent reported. */
  steps: number
}

/** A tool the trajectory must hold: a name, or a name with a pattern its arguments must match. */
export type ExpectedTool = string | { name: string; arguments?: RegExp }

export interface CallToolsOptions {
  /** The listed tools appear in this order (other calls may come between them unless `exact`). */
  order?: boolean
  /** No other tool was called: the calls are the list (in order with `order`, as a multiset without). */
  exact?: boolean
  /** Only tool calls from this source count (`model`: asked for in an answer; `agent`: run by the agent itself). */
  source?: RecordToolCall['source']
}

export interface CallsOptions {
  /** Count only the calls of this tool. */
  tool?: string
  source?: RecordToolCall['source']
}

const SHOWN = 12

function isTrajectoryLike(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

/**
 * A trajectory from what the matchers are given: a `Trajectory` (`ctx.trajectory()`), a RunRecord (`llmCalls`,
 * `toolCalls`, `steps`), or a bare list of tool calls. Anything else is an error naming what was given.
 */
export function trajectoryOf(received: unknown, where: string): Trajectory {
  if (Array.isArray(received))
    return { modelCalls: [], toolCalls: received.map((c, i) => checkedToolCall(c, i, where)), steps: 0 }
  if (!isTrajectoryLike(received)) {
    throw new InputError(
      `${where}: expected a trajectory (ctx.trajectory()), a RunRecord or a list of tool calls, got ${received === null ? 'null' : typeof received}`,
    )
  }
  const modelCalls = (received['modelCalls'] ?? received['llmCalls'] ?? []) as unknown
  const toolCalls = (received['toolCalls'] ?? []) as unknown
  if (!Array.isArray(modelCalls) || !Array.isArray(toolCalls)) {
    throw new InputError(`${where}: expected a trajectory with modelCalls (or llmCalls) and toolCalls lists`)
  }
  // A step is a model call the gateway served; without any, the steps the agent reported (a record's `steps`).
  const steps = received['steps']
  return {
    modelCalls: modelCalls as LlmCall[],
    toolCalls: toolCalls.map((c, i) => checkedToolCall(c, i, where)),
    steps: modelCalls.length > 0 ? modelCalls.length : typeof steps === 'number' && Number.isFinite(steps) ? steps : 0,
  }
}

function checkedToolCall(call: unknown, index: number, where: string): RecordToolCall {
  if (!isTrajectoryLike(call) || typeof call['name'] !== 'string')
    throw new InputError(`${where}: tool call ${index} has no name`)
  return {
    name: call['name'],
    arguments: typeof call['arguments'] === 'string' ? call['arguments'] : '',
    resultChars: typeof call['resultChars'] === 'number' ? call['resultChars'] : null,
    source: call['source'] === 'agent' ? 'agent' : 'model',
    call: typeof call['call'] === 'number' ? call['call'] : null,
  }
}

function checkExpected(expected: unknown, where: string): Array<{ name: string; arguments?: RegExp }> {
  if (!Array.isArray(expected) || expected.length === 0)
    throw new InputError(`${where}: expected a non-empty list of tool names, like ['sql', 'answer']`)
  return expected.map((e, i) => {
    if (typeof e === 'string' && e !== '') return { name: e }
    if (
      isTrajectoryLike(e) &&
      typeof e['name'] === 'string' &&
      (e['arguments'] === undefined || e['arguments'] instanceof RegExp)
    ) {
      return e['arguments'] ? { name: e['name'], arguments: e['arguments'] as RegExp } : { name: e['name'] }
    }
    throw new InputError(`${where}: entry ${i} must be a tool name or { name, arguments?: RegExp }`)
  })
}

function describeExpected(e: { name: string; arguments?: RegExp }): string {
  return e.arguments ? `${e.name}(${e.arguments})` : e.name
}

function fits(call: RecordToolCall, e: { name: string; arguments?: RegExp }): boolean {
  if (call.name !== e.name) return false
  if (!e.arguments) return true
  e.arguments.lastIndex = 0
  return e.arguments.test(call.arguments)
}

/** The tool names in order, cut for a message. */
function toolSequence(calls: readonly RecordToolCall[]): string {
  if (calls.length === 0) return 'no tool call'
  const names = calls.slice(0, SHOWN).map((c) => c.name)
  return `${names.join(' → ')}${calls.length > SHOWN ? ` … (${calls.length} calls)` : ''}`
}

function bySource(
  calls: readonly RecordToolCall[],
  source: RecordToolCall['source'] | undefined,
): readonly RecordToolCall[] {
  return source ? calls.filter((c) => c.source === source) : calls
}

/** Matches every expected entry to a distinct call (each call serves one entry); the entries left unmatched. */
function unmatched(
  calls: readonly RecordToolCall[],
  expected: ReadonlyArray<{ name: string; arguments?: RegExp }>,
): { missing: string[]; used: Set<number> } {
  const used = new Set<number>()
  const missing: string[] = []
  // Entries with an argument pattern first: a bare name must not take the one call a pattern needs.
  const order = expected
    .map((e, i) => [e, i] as const)
    .sort(([a], [b]) => Number(Boolean(b.arguments)) - Number(Boolean(a.arguments)))
  for (const [e] of order) {
    const at = calls.findIndex((c, i) => !used.has(i) && fits(c, e))
    if (at < 0) missing.push(describeExpected(e))
    else used.add(at)
  }
  return { missing, used }
}

/** The first entry that cannot follow the ones before it in order (a subsequence), or null when all do. */
function outOfOrder(
  calls: readonly RecordToolCall[],
  expected: ReadonlyArray<{ name: string; arguments?: RegExp }>,
): { entry: string; after: number } | null {
  let from = 0
  for (const [i, e] of expected.entries()) {
    let at = -1
    for (let j = from; j < calls.length; j++) {
      if (fits(calls[j]!, e)) {
        at = j
        break
      }
    }
    if (at < 0) return { entry: describeExpected(e), after: i }
    from = at + 1
  }
  return null
}

/**
 * Whether the trajectory called the listed tools: each entry matched by a distinct call (a name listed twice
 * needs two calls); with `order`, in the listed order; with `exact`, nothing else was called.
 */
export function checkToolCalls(
  trajectory: Trajectory,
  expected: readonly ExpectedTool[],
  opts: CallToolsOptions = {},
): GradeResult {
  const where = 'toCallTools'
  const wanted = checkExpected(expected, where)
  const calls = bySource(trajectory.toolCalls, opts.source)
  const seen = `called ${toolSequence(calls)}`
  const listed = wanted.map(describeExpected).join(opts.order ? ' → ' : ', ')
  const fail = (why: string): GradeResult => ({ passed: false, detail: `${why}; ${seen}`, score: 0 })
  if (opts.order && opts.exact) {
    const same = calls.length === wanted.length && wanted.every((e, i) => fits(calls[i]!, e))
    return same ? { passed: true, detail: `called exactly ${listed}`, score: 1 } : fail(`expected exactly ${listed}`)
  }
  const { missing, used } = unmatched(calls, wanted)
  if (missing.length > 0) return fail(`no call of ${missing.join(', ')}`)
  if (opts.order) {
    const broken = outOfOrder(calls, wanted)
    if (broken)
      return fail(`expected ${listed} in this order, and ${broken.entry} does not follow the ${broken.after} before it`)
  }
  if (opts.exact && used.size < calls.length) {
    const extra = calls.filter((_, i) => !used.has(i)).map((c) => c.name)
    return fail(`expected exactly ${listed}, and ${extra.length} more call(s): ${[...new Set(extra)].join(', ')}`)
  }
  if (opts.exact) return { passed: true, detail: `called exactly ${listed}`, score: 1 }
  return {
    passed: true,
    detail: `called ${listed}${opts.order ? ' in order' : ''} (${calls.length} tool call(s) in all)`,
    score: 1,
  }
}

function checkBound(n: unknown, where: string): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new InputError(`${where}: the bound must be a non-negative integer, got ${String(n)}`)
  return n
}

/** At most `n` steps: model calls when the gateway saw any, else the steps the agent reported. */
export function checkSteps(trajectory: Trajectory, n: number): GradeResult {
  const bound = checkBound(n, 'toUseAtMostSteps')
  const { steps } = trajectory
  const passed = steps <= bound
  return {
    passed,
    detail: `${steps} step(s)${passed ? ', within' : ', over'} the bound of ${bound}`,
    score: passed ? 1 : 0,
  }
}

/** At most `n` tool calls (of one tool with `tool`). */
export function checkToolCallCount(trajectory: Trajectory, n: number, opts: CallsOptions = {}): GradeResult {
  const bound = checkBound(n, 'toUseAtMostCalls')
  const calls = bySource(trajectory.toolCalls, opts.source).filter(
    (c) => opts.tool === undefined || c.name === opts.tool,
  )
  const what = opts.tool ? `${opts.tool} call(s)` : 'tool call(s)'
  const passed = calls.length <= bound
  return {
    passed,
    detail: `${calls.length} ${what}${passed ? ', within' : ', over'} the bound of ${bound}: ${toolSequence(calls)}`,
    score: passed ? 1 : 0,
  }
}
