import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CliIO } from '../../src/cli/io.js'
import { main } from '../../src/cli/main.js'

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI in-process against a cwd, capturing its output. */
export async function runCli(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
    cwd,
    env: { NO_COLOR: '1', ...env },
  })
  return { code, stdout, stderr }
}

/** A `qa` run against a model upstream: the agent, its base URL, model `m1`, the key from `QA_KEY`, the suite, then `more`. */
export function modelQaArgs(agent: string, baseUrl: string, suite: string, ...more: string[]): string[] {
  return [
    'qa',
    '--agent',
    agent,
    '--base-url',
    baseUrl,
    '--model',
    'm1',
    '--api-key-env',
    'QA_KEY',
    '--suite',
    suite,
    ...more,
  ]
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'dataforge-cli-'))
  try {
    return await fn(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** An in-memory CliIO for calling one command directly; `out` and `err` collect what it printed. */
export function captureIO(cwd: string): CliIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd,
    env: {},
    stdout(t: string) {
      io.out += t
    },
    stderr(t: string) {
      io.err += t
    },
  }
  return io
}
