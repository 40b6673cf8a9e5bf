import { InputError } from '../core/errors.js'
import { fsProblem, isEnvironmentError } from '../files/fs-errors.js'
import type { CliIO } from './io.js'
import { terminalText } from '../core/escape-text.js'

/**
 * The one line printed for bad usage or input (an InputError or a node:util parseArgs error) or for an error of
 * the machine (full disk, read-only folder: see fs-errors.ts); null for anything else.
 */
function inputErrorLine(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code
  if (isEnvironmentError(error)) {
    const where = error.path ? `${error.path}: ` : ''
    return `dataforge-evals: ${where}cannot ${error.syscall ?? 'write'}: ${fsProblem(error)}\n`
  }
  if (!(error instanceof InputError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')))) return null
  return `dataforge-evals: ${terminalText(
    String((error as Error).message)
      .split('\n')[0]!
      .trim(),
  )}\n`
}

/** Runs a command body; bad input becomes one line on stderr and exit code 2 (the CLI's one rule for it). */
export async function withInputErrors(io: CliIO, body: () => Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (error) {
    const line = inputErrorLine(error)
    if (line === null) throw error
    io.stderr(line)
    return 2
  }
}
