import { basename } from 'node:path'
import { dataforgeMatchers } from '../matchers/index.js'
import { installCurrentTestAccess } from '../matchers/recorder.js'
import { keptErrors } from '../test-meta/to-run-record.js'
import { type DataforgeMeta, plainTestMeta } from '../test-meta/build.js'
import { markSetupLoaded, registeredMeta } from './globals.js'
import { appendSideLine, SIDE_DIR_ENV } from './side-file.js'

/**
 * `setupFilesAfterEnv: ['dataforge-evals/jest/setup']`: registers the matchers with Jest's `expect` and writes
 * each finished test that used them (its result and meta) to this worker's side file, when the dataforge Jest
 * reporter runs, which names the folder and builds the RunRecords.
 */

/** The parts of a jest-circus test the recorder reads. */
interface CircusTest {
  name: string
  parent?: { name: string; parent?: unknown }
  errors: unknown[]
  duration?: number | null
  concurrent?: boolean
  /** `test.failing`: the test passes when its body throws. */
  failing?: boolean
  fn?: unknown
}
type CircusEvent = { name: string; test?: CircusTest }
interface JestExpectState {
  testPath?: string
  /** Jest ≥ 30.5: the test whose body (or hooks) the caller runs in, from jest-circus's AsyncLocalStorage. */
  currentTestIdentity?: () => CircusTest | undefined
  /** Jest ≥ 29.6: the id (`describe test`, space-joined) of the test the caller runs in: of a concurrent one only before Jest 30.2. */
  currentConcurrentTestName?: () => string | undefined
}
type JestExpect = { extend(matchers: object): void; getState(): JestExpectState }

const handlers = (globalThis as Record<symbol, unknown>)[Symbol.for('EVENT_HANDLERS')] as
  | Array<(event: CircusEvent) => void>
  | undefined
const jestExpect = (globalThis as { expect?: JestExpect }).expect
if (!handlers || !jestExpect) {
  throw new Error(
    'dataforge-evals/jest/setup must run under Jest (>= 29) with its default runner jest-circus, as a setupFilesAfterEnv entry',
  )
}

/** Each running test's meta, created when a matcher or a case helper first needs it. */
const metas = new WeakMap<CircusTest, DataforgeMeta>()
/** The running sequential test: they run one at a time. */
let runningSequential: CircusTest | null = null
/** Running tests by Jest's test id. */
const runningById = new Map<string, CircusTest[]>()

const ROOT_BLOCK = 'ROOT_DESCRIBE_BLOCK'

function names(test: CircusTest): string[] {
  const out = [test.name]
  let block = test.parent
  while (block && block.name !== ROOT_BLOCK) {
    out.unshift(block.name)
    block = block.parent as CircusTest['parent']
  }
  return out
}

/** `describe > test`, as Vitest names it, so both runners give a case the same id. */
function fullName(test: CircusTest): string {
  return names(test).join(' > ')
}

/**
 * The test an assertion belongs to. Concurrent tests interleave with each other (and, before Jest 30.2, with
 * the sequential ones), so "the last test started" is not it. Jest 30.5+ says which test the caller runs in;
 * older Jest 30 says its id, which names one running test unless two running tests share a name: then the
 * verdict is refused, not guessed. Without an id, the caller runs in the sequential test.
 */
function currentTest(): CircusTest | null {
  const state = jestExpect?.getState()
  if (typeof state?.currentTestIdentity === 'function') return state.currentTestIdentity() ?? null
  const id = typeof state?.currentConcurrentTestName === 'function' ? state.currentConcurrentTestName() : undefined
  if (id === undefined) return runningSequential
  const candidates = runningById.get(id) ?? []
  if (candidates.length > 1) {
    throw new Error(
      `dataforge-evals: ${candidates.length} tests named "${id}" run at once, and this Jest cannot say which one an assertion belongs to; rename them, or use Jest 30.5 or later`,
    )
  }
  return candidates[0] ?? null
}

function startRunning(test: CircusTest): void {
  if (!test.concurrent) runningSequential = test
  const id = names(test).join(' ')
  runningById.set(id, [...(runningById.get(id) ?? []), test])
}

function stopRunning(test: CircusTest): void {
  if (runningSequential === test) runningSequential = null
  const id = names(test).join(' ')
  const left = (runningById.get(id) ?? []).filter((t) => t !== test)
  if (left.length) runningById.set(id, left)
  else runningById.delete(id)
}

function metaOfRunning(): DataforgeMeta | null {
  const test = currentTest()
  if (!test) return null
  let meta = metas.get(test)
  if (!meta) {
    meta = plainTestMeta(fullName(test), testFileName())
    metas.set(test, meta)
  }
  return meta
}

function testFileName(): string | undefined {
  const path = jestExpect?.getState().testPath
  return path ? basename(path) : undefined
}

function firstError(errors: unknown[]): { name?: string; message?: string } | undefined {
  const first = errors[0]
  const error = Array.isArray(first) ? first[0] : first
  if (error instanceof Error) return { name: error.name, message: error.message }
  return error === undefined ? undefined : { message: String(error) }
}

function finish(test: CircusTest, meta: DataforgeMeta, skipped = false): void {
  const dir = process.env[SIDE_DIR_ENV]
  if (!dir) return
  const error = firstError(test.errors)
  appendSideLine(dir, {
    testPath: jestExpect?.getState().testPath ?? '',
    test: {
      fullName: fullName(test),
      // jest-circus has already inverted a `.failing` test's outcome: passed means its body threw.
      state: skipped ? 'skipped' : test.errors.length ? 'failed' : 'passed',
      // The file holds only what the record can: a failed verdict's message may show clean values.
      errors: keptErrors(error ? [error] : [], meta),
      durationMs: test.duration ?? 0,
      meta,
      expectedToFail: test.failing === true,
    },
  })
}

handlers.push((event) => {
  const test = event.test
  if (!test) return
  if (event.name === 'test_start') {
    // A retried test starts over with a fresh meta.
    metas.delete(test)
    startRunning(test)
  }
  if (event.name === 'test_skip' || event.name === 'test_todo') {
    stopRunning(test)
    // A case helper's test skipped (`.skip`, `-t`, another test's `.only`) is a skipped run, as under Vitest.
    const meta = registeredMeta(test.fn)
    if (meta) finish(test, structuredClone(meta), true)
  }
  if (event.name === 'test_done') {
    const meta = metas.get(test)
    metas.delete(test)
    stopRunning(test)
    if (meta) finish(test, meta)
  }
})

installCurrentTestAccess({
  recordVerdict: (record) => {
    metaOfRunning()?.matchers.push(record)
  },
  meta: () => metaOfRunning() ?? undefined,
})

jestExpect.extend(dataforgeMatchers)
markSetupLoaded()

export type { DataforgeJestMatchers } from './augment.js'
