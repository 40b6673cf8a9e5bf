import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunRecord } from '../../src/core/run-record.js'

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const cliBin = join(repoRoot, 'dist/cli/bin.js')

/**
 * A throwaway project for wall attacks: `data/hospital/{dirty,clean}.csv` (the run's held-out data, copied from
 * the bundled set) and `agents/<name>/agent.mjs`, each agent in a folder of its own. An attack agent throws
 * `LEAKED …` when it reached anything it must not; otherwise it returns no fixes, as `noop` does.
 */
export class WallProject {
  readonly root = mkdtempSync(join(tmpdir(), 'dataforge-wall-'))
  readonly dataDir = join(this.root, 'data')
  readonly cleanCsv = join(this.dataDir, 'hospital', 'clean.csv')

  constructor() {
    mkdirSync(join(this.dataDir, 'hospital'), { recursive: true })
    for (const f of ['dirty.csv', 'clean.csv']) cpSync(join(repoRoot, 'datasets/hospital', f), join(this.dataDir, 'hospital', f))
  }

  /** Writes a module agent whose `find()` body returns what leaked (a string) or null. */
  agent(name: string, findBody: string): string {
    const dir = join(this.root, 'agents', name)
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'agent.mjs')
    writeFileSync(
      path,
      `import fs from 'node:fs'
import { createRequire } from 'node:module'
const CLEAN = ${JSON.stringify(this.cleanCsv)}
const DATA = ${JSON.stringify(this.dataDir)}
const read = (p) => { try { const t = fs.readFileSync(p, 'utf8'); return t.length ? t : null } catch { return null } }
const attempt = (fn) => { try { return fn() } catch { return null } }
function find() {
${findBody}
}
export default {
  name: ${JSON.stringify(name)},
  run() {
    const found = find()
    if (found) throw new Error('LEAKED ' + String(found).slice(0, 120))
    return []
  },
}
`,
    )
    return path
  }

  /** The folder of an agent written by `agent()`. */
  dirOf(name: string): string {
    return join(this.root, 'agents', name)
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true })
  }
}

export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  out: string
  runs(): RunRecord[]
  reportWritten: boolean
}

/**
 * Runs the built CLI as a real process in `cwd` (so an agent's parent is a real harness it could signal), with
 * reports in a fresh folder. A harness frozen by SIGSTOP is continued and killed after `limitMs`.
 */
export function runCliProcess(args: string[], cwd: string, env: Record<string, string> = {}, limitMs = 120_000): Promise<CliRun> {
  const out = mkdtempSync(join(tmpdir(), 'dataforge-wall-out-'))
  const argv = [cliBin, 'run', ...args, '--quiet', '--output', join(out, 'report.md'), '--output-json', join(out, 'report.json')]
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, argv, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    const timer = setTimeout(() => {
      stderr += '\n[test] harness still running: continued and killed\n'
      child.kill('SIGCONT')
      child.kill('SIGKILL')
    }, limitMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const runsFile = join(out, 'runs.jsonl')
      resolveRun({
        code,
        signal,
        stdout,
        stderr,
        out,
        reportWritten: existsSync(join(out, 'report.json')) && existsSync(runsFile),
        runs: () =>
          readFileSync(runsFile, 'utf8')
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l) as RunRecord),
      })
    })
  })
}

/** What a scored trial counts, to compare an attack with noop. */
export const counts = (r: RunRecord) => ({ status: r.status, failure: r.failureMessage, tp: r.tp, fp: r.fp, fn: r.fn, f1: r.f1 })
