import { basename } from 'node:path'
import { dataforgeMatchers } from '../matchers/index.js'
import { installCurrentTestAccess } from '../matchers/recorder.js'
import { recordFromTest } from '../cases/record-from-meta.js'
import { type DataforgeMeta, plainTestMeta } from '../cases/new-meta.js'
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
}
type CircusEvent = { name: string; test?: CircusTest }
type JestExpect = { extend(matchers: object): void; getState(): { testPath?: string } }

const handlers = (globalThis as Record<symbol, unknown>)[Symbol.for('EVENT_HANDLERS')] as Array<(event: CircusEvent) => void> | undefined
const jestExpect = (globalThis as { expect?: JestExpect }).expect
if (!handlers || !jestExpect) {
  throw new Error('dataforge-evals/jest/setup must run under Jest (>= 29) with its default runner jest-circus, as a setupFilesAfterEnv entry')
}

let running: { test: CircusTest; meta: DataforgeMeta | null } | null = null

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

function metaOfRunning(): DataforgeMeta | null {
  if (!running) return null
  running.meta ??= plainTestMeta(fullName(running.test), testFileName())
  return running.meta
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

function finish(test: CircusTest, meta: DataforgeMeta): void {
  const dir = process.env[SIDE_DIR_ENV]
  if (!dir) return
  const error = firstError(test.errors)
  const record = recordFromTest(
    { fullName: fullName(test), state: test.errors.length ? 'failed' : 'passed', errors: error ? [error] : [], durationMs: test.duration ?? 0, meta },
    { projectCommit: null, runDateUtc: new Date().toISOString() },
  )
  appendSideLine(dir, { testPath: jestExpect?.getState().testPath ?? '', record, ...(meta.datasetInfo ? { datasetInfo: meta.datasetInfo } : {}) })
}

handlers.push((event) => {
  if (event.name === 'test_start' && event.test) running = { test: event.test, meta: null }
  if (event.name === 'test_done' && event.test && running?.test === event.test) {
    const { meta } = running
    running = null
    if (meta) finish(event.test, meta)
  }
})

installCurrentTestAccess({
  recordVerdict: (record) => {
    metaOfRunning()?.matchers.push(record)
  },
  meta: () => metaOfRunning() ?? undefined,
})

jestExpect.extend(dataforgeMatchers)
