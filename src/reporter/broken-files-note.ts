import { compareText } from '../core/order.js'

/** An eval file whose tests did not all get to run: it did not load, or its worker died. */
interface BrokenFile {
  /** Relative to the project root. */
  path: string
  message: string
}

/**
 * One line per eval file that failed outside its tests: the report holds only what such a file recorded before,
 * and the run counts as partial (its groups are neither reported in full nor dropped from the baseline).
 */
export function brokenFilesNote(files: readonly BrokenFile[]): string {
  const head =
    files.length === 1
      ? '1 eval file failed outside its tests'
      : `${files.length} eval files failed outside their tests`
  const lines = [...files]
    .sort((a, b) => compareText(a.path, b.path))
    .map((f) => `  ${f.path}: ${firstLine(f.message) || 'no message'}`)
  return [
    `dataforge-evals: ${head} (a load error or a dead worker); the report holds only what they recorded:`,
    ...lines,
  ].join('\n')
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  )
}
