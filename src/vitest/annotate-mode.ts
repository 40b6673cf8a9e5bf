import { InputError } from '../core/errors.js'

/**
 * Which dataforge verdicts become Vitest annotations. `failures` (default): failed verdicts and the questions
 * of failed turns. `all`: every verdict and every question, at one round trip to Vitest's main process per
 * annotation. Set by `DATAFORGE_ANNOTATE`, else provided to the workers by the dataforge reporter (`all`
 * under `vitest --ui`, where one browses single cases).
 */
export type AnnotateMode = 'failures' | 'all'

/** The key under which the reporter `provide`s the mode to the test workers. */
export const ANNOTATE_KEY = 'dataforgeAnnotate'

declare module 'vitest' {
  interface ProvidedContext {
    dataforgeAnnotate: AnnotateMode
  }
}

export function parseAnnotateMode(value: string | undefined): AnnotateMode | undefined {
  const trimmed = value?.trim()
  if (!trimmed) return undefined
  if (trimmed === 'failures' || trimmed === 'all') return trimmed
  throw new InputError(`DATAFORGE_ANNOTATE must be "failures" or "all", got ${JSON.stringify(value)}`)
}
