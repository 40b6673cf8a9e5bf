/** What a CLI command may touch, injected so tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void
  stderr(text: string): void
  cwd: string
  env: Record<string, string | undefined>
}

/** A subcommand: parses its own argv, returns the exit code (0 ok, 1 gate/comparison failed, 2 bad usage/input). */
export type Command = (argv: string[], io: CliIO) => Promise<number>

export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
  }
}
