import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const jitiRegister = fileURLToPath(new URL('../../node_modules/jiti/lib/jiti-register.mjs', import.meta.url))
const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))

/** Starts the CLI from the sources as a real child process (for signals, kill -9 and closed pipes). */
export function spawnCli(argv: string[], cwd: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', jitiRegister, bin, ...argv], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** Resolves with the exit code (or signal) and everything printed. */
export function finished(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}
