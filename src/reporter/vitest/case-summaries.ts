import pc from 'picocolors'
import type { TestCase, Vitest } from 'vitest/node'
import { VerboseReporter } from 'vitest/node'
import { ANNOTATE_KEY, type AnnotateMode, parseAnnotateMode } from '../../vitest/annotate-mode.js'
import { isExactDataforgeMeta } from '../../test-meta/check.js'

/*
 * Matcher summaries of passing verdicts travel on the test meta, not as annotations (an annotation is a round
 * trip per test that the worker waits for). This puts them back where a user looks: annotated by the workers
 * under `vitest --ui`, where one browses single cases, and printed under each test when Vitest's verbose
 * reporter lists every test. Failed verdicts are annotated by the workers and printed by Vitest itself.
 */

/**
 * Decides the workers' annotate mode for this run and provides it to them: `DATAFORGE_ANNOTATE` when set
 * (checked here first, for one clear error), else `all` under `vitest --ui`, else `failures`.
 */
export function provideAnnotateMode(vitest: Vitest): AnnotateMode {
  const mode = parseAnnotateMode(process.env.DATAFORGE_ANNOTATE) ?? (vitest.config.ui ? 'all' : 'failures')
  vitest.provide(ANNOTATE_KEY, mode)
  return mode
}

/**
 * The summaries of the verdicts that held, one indented line each, as printed under their test. A meta that is
 * not exactly what evalCase writes prints nothing here: the run's end parses it and reports what is wrong.
 */
function passedVerdictLines(meta: unknown, color: boolean): string[] {
  if (!isExactDataforgeMeta(meta)) return []
  return meta.matchers.filter((m) => m.passed).map((m) => `     ${color ? pc.dim(`↳ ${m.summary}`) : `↳ ${m.summary}`}`)
}

/** True when Vitest's verbose reporter (or one built on it), which prints a line per test, is in this run. */
function listsEveryTest(vitest: Vitest): boolean {
  return vitest.config.reporters.some((reporter) =>
    Array.isArray(reporter) ? reporter[0] === 'verbose' : reporter instanceof VerboseReporter,
  )
}

/**
 * A printer for finished tests, or null when nothing needs printing: only when Vitest's verbose reporter (or
 * one built on it) lists every test, and the workers did not annotate every verdict already.
 */
export function verdictPrinter(
  vitest: Vitest,
  mode: AnnotateMode,
  color: boolean,
): ((testCase: TestCase) => void) | null {
  if (mode === 'all' || !listsEveryTest(vitest)) return null
  return (testCase) => {
    if (testCase.result().state === 'skipped') return
    const lines = passedVerdictLines(testCase.meta().dataforge, color)
    if (lines.length) vitest.logger.log(lines.join('\n'))
  }
}
