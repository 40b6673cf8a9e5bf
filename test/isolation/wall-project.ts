import { spawn } from 'node:child_process'
import {
  closeSync,
  cpSync,
  existsSync,
  openSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
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
    for (const f of ['dirty.csv', 'clean.csv'])
      cpSync(join(repoRoot, 'datasets/hospital', f), join(this.dataDir, 'hospital', f))
  }

  /**
   * Writes a module agent whose `find()` body (it may `await`) returns what leaked (a string) or null; `ts`: as a
   * TypeScript module (`agent.ts`, loaded through jiti).
   */
  agent(name: string, findBody: string, opts: { ts?: boolean } = {}): string {
    const dir = join(this.root, 'agents', name)
    mkdirSync(dir, { recursive: true })
    const path = join(dir, opts.ts ? 'agent.ts' : 'agent.mjs')
    const any = opts.ts ? ': any' : ''
    writeFileSync(
      path,
      `import fs from 'node:fs'
import os from 'node:os'
import { createRequire } from 'node:module'
const CLEAN = ${JSON.stringify(this.cleanCsv)}
const DATA = ${JSON.stringify(this.dataDir)}
const read = (p${any}) => { try { const t = fs.readFileSync(p, 'utf8'); return t.length ? t : null } catch { return null } }
const attempt = (fn${any}) => { try { return fn() } catch { return null } }
const sleep = (ms${any}) => new Promise((r) => setTimeout(r, ms))
async function find()${opts.ts ? ': Promise<any>' : ''} {
${findBody}
}
void os
void sleep
export default {
  name: ${JSON.stringify(name)},
  async run() {
    const found = await find()
    if (found) throw new Error('LEAKED ' + String(found).slice(0, 120))
    return []
  },
}
`,
    )
    return path
  }

  /**
   * Writes a Python command agent (`agents/<name>/agent.py`, the protocol inline) whose `find()` body returns what
   * leaked (a string) or None; `os`, `glob`, `signal` are imported and `CLEAN`, `DATA` set.
   */
  pythonAgent(name: string, findBody: string): string {
    const dir = join(this.root, 'agents', name)
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'agent.py')
    const body = findBody
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')
    writeFileSync(
      path,
      `#!/usr/bin/env python3
import glob, json, os, signal, sys
CLEAN = ${JSON.stringify(this.cleanCsv)}
DATA = ${JSON.stringify(this.dataDir)}
def read(p):
    try:
        with open(p) as f:
            t = f.read()
        return t or None
    except OSError:
        return None
def find():
${body}
print(json.dumps({"type": "ready", "protocol": 1, "name": ${JSON.stringify(name)}, "capabilities": ["repair"]}), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    try:
        found = find()
    except Exception:
        found = None
    if found:
        print(json.dumps({"type": "error", "id": msg["id"], "message": "LEAKED " + str(found)[:120]}), flush=True)
    else:
        print(json.dumps({"type": "result", "id": msg["id"], "fixes": []}), flush=True)
`,
      { mode: 0o755 },
    )
    return path
  }

  /**
   * Writes a shell command agent (`agents/<name>/agent.sh`, POSIX sh): `attack` runs once per request and prints
   * what leaked (nothing when nothing did).
   */
  shellAgent(name: string, attack: string): string {
    const dir = join(this.root, 'agents', name)
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'agent.sh')
    writeFileSync(
      path,
      `#!/bin/sh
CLEAN=${JSON.stringify(this.cleanCsv)}
DATA=${JSON.stringify(this.dataDir)}
attack() {
${attack}
}
echo '{"type":"ready","protocol":1,"name":"${name}","capabilities":["repair"]}'
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p')
  leak=$(attack | tr -cd 'A-Za-z0-9 _.,=-' | head -c 100)
  if [ -n "$leak" ]; then printf '{"type":"error","id":%s,"message":"LEAKED %s"}\\n' "$id" "$leak"
  else printf '{"type":"result","id":%s,"fixes":[]}\\n' "$id"; fi
done
`,
      { mode: 0o755 },
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
export function runCliProcess(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  limitMs = 120_000,
  opts: { openFiles?: Record<number, string> } = {},
): Promise<CliRun> {
  const out = mkdtempSync(join(tmpdir(), 'dataforge-wall-out-'))
  const argv = [
    cliBin,
    'run',
    ...args,
    '--quiet',
    '--output',
    join(out, 'report.md'),
    '--output-json',
    join(out, 'report.json'),
  ]
  // `run … 200<file`: the harness starts with these files open at these descriptors.
  const stdio: Array<'ignore' | 'pipe' | number> = ['ignore', 'pipe', 'pipe']
  const opened: number[] = []
  for (const [fd, file] of Object.entries(opts.openFiles ?? {})) {
    while (stdio.length < Number(fd)) stdio.push('ignore')
    const handle = openSync(file, 'r')
    opened.push(handle)
    stdio[Number(fd)] = handle
  }
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, argv, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio })
    for (const handle of opened) closeSync(handle)
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
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
export const counts = (r: RunRecord) => ({
  status: r.status,
  failure: r.failureMessage,
  tp: r.tp,
  fp: r.fp,
  fn: r.fn,
  f1: r.f1,
})
