import type { RunnerTestCase as Test } from 'vitest'
import { inject } from 'vitest'
import { ANNOTATE_KEY, type AnnotateMode, parseAnnotateMode } from './annotate-mode.js'
import { terminalLines } from '../core/escape-text.js'

/*
 * An annotation is a round trip to Vitest's main process (plus a stack capture) that the test awaits before it
 * may finish: one per passing case made a thousand trivial evals three times slower than plain tests. So by
 * default only failures are annotated, which is where Vitest's default reporter, CI annotations and the UI
 * show them first; every verdict is on `task.meta.dataforge` anyway, and the dataforge reporter prints
 * passing summaries from there under `--reporter=verbose`.
 */

let mode: AnnotateMode | undefined

/** Decided once per worker: the variable and the provided mode do not change during a Vitest run. */
function annotateMode(): AnnotateMode {
  mode ??= decideAnnotateMode()
  return mode
}

function decideAnnotateMode(): AnnotateMode {
  const fromEnv = parseAnnotateMode(process.env.DATAFORGE_ANNOTATE)
  if (fromEnv) return fromEnv
  try {
    return inject(ANNOTATE_KEY) ?? 'failures'
  } catch {
    return 'failures'
  }
}

/** True when a verdict (or a turn's question) with this outcome is annotated on its test. */
export function shouldAnnotate(failed: boolean): boolean {
  return failed || annotateMode() === 'all'
}

/** Annotates `test` without waiting here: Vitest awaits the annotation before the test finishes. */
export function annotate(test: Test, message: string, type: string): void {
  try {
    // Vitest prints annotations as they are: a verdict or question holding agent or data text must not drive the terminal.
    void test.context?.annotate?.(terminalLines(message), type)?.catch(() => undefined)
  } catch {
    // The test already finished (an assertion in a late callback): the verdict stays on the meta only.
  }
}

/**
 * Runs a question turn's body (ask, record, check). Its question is annotated before the body under `all`,
 * otherwise after it, and only when the turn failed (a thrown error, a soft assertion, a failed question).
 */
export async function withQuestionAnnotated(test: Test, question: string, body: () => Promise<void>): Promise<void> {
  const everyTurn = shouldAnnotate(false)
  if (everyTurn) annotate(test, question, 'dataforge-question')
  let failed = true
  try {
    await body()
    failed = Boolean(test.result?.errors?.length)
  } finally {
    if (failed && !everyTurn) annotate(test, question, 'dataforge-question')
  }
}
