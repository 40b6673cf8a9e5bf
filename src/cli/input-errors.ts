import { InputError } from '../core/errors.js'
import type { CliIO } from './io.js'

/**
 * The one place bad usage or input becomes exit 2: an InputError or a parseArgs error is printed as one line
 * on stderr. Anything else propagates (main reports it as an internal error, exit 1).
 */
export async function withInputErrors(io: CliIO, body: () => Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (error) {
    if (error instanceof InputError || isParseArgsError(error)) {
      io.stderr(`dataforge-evals: ${firstLine((error as Error).message)}\n`)
      return 2
    }
    throw error
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
}

export function firstLine(text: string): string {
  return String(text).split('\n')[0]!.trim()
}
