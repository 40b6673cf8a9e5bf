import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const jitiRegister = fileURLToPath(new URL('../../node_modules/jiti/lib/jiti-register.mjs', import.meta.url))
const sourceBin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))
const builtBin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))
const srcDir = fileURLToPath(new URL('../../src', import.meta.url))

let command: string[] | null = null

/**
 * The CLI as a child process runs it: the build when it is newer than every source file (`npm test` builds
 * first), else the sources through jiti, which costs ~13 s of CPU a start against ~1.5 s.
 */
export function cliCommand(): string[] {
  command ??= builtIsFresh() ? [process.execPath, builtBin] : [process.execPath, '--import', jitiRegister, sourceBin]
  return command
}

function builtIsFresh(): boolean {
  if (!existsSync(builtBin)) return false
  const built = statSync(builtBin).mtimeMs
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
  return files.every((name) => statSync(join(srcDir, name)).mtimeMs <= built)
}

/** Starts the CLI as a real child process (for signals, kill -9 and closed pipes). */
export function spawnCli(argv: string[], cwd: string, env: Record<string, string> = {}): ChildProcess {
  const [node, ...args] = cliCommand()
  return spawn(node!, [...args, ...argv], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** Resolves with the exit code (or signal) and everything printed. */
export function finished(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
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
