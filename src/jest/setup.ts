import { basename } from 'node:path'
import { dataforgeMatchers } from '../matchers/index.js'
import { installCurrentTestAccess } from '../matchers/recorder.js'
import { recordFromTest } from '../cases/record-from-meta.js'
import { type DataforgeMeta, plainTestMeta } from '../cases/new-meta.js'
import { markSetupLoaded, registeredMeta } from './globals.js'
import { appendSideLine, SIDE_DIR_ENV } from './side-file.js'
import './augment.js'

/**
 * `setupFilesAfterEnv: ['dataforge-evals/jest/setup']`: registers the matchers with Jest's `expect` and writes
 * each finished test that used them as a RunRecord line to this worker's side file (when the dataforge Jest
 * reporter runs, which names the folder).
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
}
type JestExpect = { extend(matchers: object): void; getState(): JestExpectState }

const handlers = (globalThis as Record<symbol, unknown>)[Symbol.for('EVENT_HANDLERS')] as Array<(event: CircusEvent) => void> | undefined
const jestExpect = (globalThis as { expect?: JestExpect }).expect
if (!handlers || !jestExpect) {
  throw new Error('dataforge-evals/jest/setup must run under Jest (>= 29) with its default runner jest-circus, as a setupFilesAfterEnv entry')
}

/** Each running test's meta, created when a matcher or a case helper first needs it. */
const metas = new WeakMap<CircusTest, DataforgeMeta>()
/** The last test started: the running one when tests run one at a time. */
let lastStarted: CircusTest | null = null

const ROOT_BLOCK = 'ROOT_DESCRIBE_BLOCK'

/** `describe > test`, as Vitest names it, so both runners give a case the same id. */
function fullName(test: CircusTest): string {
  const names = [test.name]
  let block = test.parent
  while (block && block.name !== ROOT_BLOCK) {
    names.unshift(block.name)
    block = block.parent as CircusTest['parent']
  }
  return names.join(' > ')
}

/**
 * The test an assertion belongs to. Concurrent tests interleave, so "the last test started" is not it: Jest
 * 30.5+ says which test the caller runs in (an AsyncLocalStorage of jest-circus). Older Jest cannot tell, and
 * a verdict of a `test.concurrent` there would land on whichever test started last: refused, not guessed.
 */
function currentTest(): CircusTest | null {
  const identity = jestExpect?.getState().currentTestIdentity
  if (typeof identity === 'function') return identity() ?? null
  if (lastStarted?.concurrent) {
    throw new Error('dataforge-evals: recording a test.concurrent (or evalCase.concurrent) needs Jest 30.5 or later, which tells concurrent tests apart; upgrade Jest or drop .concurrent')
  }
  return lastStarted
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
  const record = recordFromTest(
    {
      fullName: fullName(test),
      // jest-circus has already inverted a `.failing` test's outcome: passed means its body threw.
      state: skipped ? 'skipped' : test.errors.length ? 'failed' : 'passed',
      errors: error ? [error] : [],
      durationMs: test.duration ?? 0,
      meta,
      expectedToFail: test.failing === true,
    },
    { projectCommit: null, runDateUtc: new Date().toISOString() },
  )
  appendSideLine(dir, { testPath: jestExpect?.getState().testPath ?? '', record, ...(meta.datasetInfo ? { datasetInfo: meta.datasetInfo } : {}) })
}

handlers.push((event) => {
  const test = event.test
  if (!test) return
  if (event.name === 'test_start') {
    // A retried test starts over with a fresh meta.
    metas.delete(test)
    lastStarted = test
  }
  if (event.name === 'test_skip' || event.name === 'test_todo') {
    if (lastStarted === test) lastStarted = null
    // A case helper's test skipped (`.skip`, `-t`, another test's `.only`) is a skipped run, as under Vitest.
    const meta = registeredMeta(test.fn)
    if (meta) finish(test, structuredClone(meta), true)
  }
  if (event.name === 'test_done') {
    const meta = metas.get(test)
    metas.delete(test)
    if (lastStarted === test) lastStarted = null
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
