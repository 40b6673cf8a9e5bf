import pc from 'picocolors'

/** What a CLI command may touch, injected so tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  cwd: string
  env: Record<string, string | undefined>
}

/** Whether the CLI colors what it prints: the terminal supports it and `NO_COLOR` is not set (in `io.env`). */
export function colorOn(io: Pick<CliIO, 'env'>): boolean {
  return io.env.NO_COLOR === undefined && pc.isColorSupported
}

export type Colors = ReturnType<typeof pc.createColors>

/** The colors of what the CLI prints: none where `colorOn` says no. */
export function colorsFor(io: Pick<CliIO, 'env'>): Colors {
  return pc.createColors(colorOn(io))
}

/** A path as the CLI prints it: relative to the working directory when inside it, else as it is. */
export function shownPath(cwd: string, path: string): string {
  return path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path
}

/** A subcommand: parses its own argv, returns the exit code (0 ok, 1 gate/comparison failed, 2 bad usage/input). */
export type Command = (argv: string[], io: CliIO) => Promise<number>

export function processIO(): CliIO {
  return {
    stdout: quietWhenClosed(process.stdout),
    stderr: quietWhenClosed(process.stderr),
    cwd: process.cwd(),
    env: process.env,
  }
}

/**
 * A writer that goes quiet once its reader is gone (`| head` closed the pipe: EPIPE), instead of crashing the
 * run: the work goes on and the reports are still written.
 */
function quietWhenClosed(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false
  stream.on('error', () => {
    closed = true
  })
  return (text) => {
    if (closed || stream.destroyed) return
    try {
      stream.write(text)
    } catch {
      closed = true
    }
  }
}
