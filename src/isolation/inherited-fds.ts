import { openSync, readdirSync, readFileSync } from 'node:fs'
import type { StdioOptions } from 'node:child_process'

/** Linux's O_CLOEXEC as `/proc/self/fdinfo` shows it (octal flags). */
const O_CLOEXEC = 0o2000000

let devNull: number | undefined

/**
 * The `stdio` of an agent process: pipes for 0–2, and `/dev/null` over every other descriptor the harness would
 * pass on. A spawned child inherits each descriptor of the harness not marked close-on-exec, and bwrap passes them
 * into the sandbox: `dataforge-evals run … 200<clean.csv` handed fd 200, the clean CSV, to the agent. Node's own
 * descriptors are close-on-exec; the ones the harness inherited from its own parent (a shell redirection, a test
 * runner's channel) are not, and this covers each of them with `/dev/null` in the child (libuv has no option to
 * close them). Where `/proc/self/fdinfo` is missing (macOS), every open descriptor above 2 is covered.
 */
export function agentStdio(): StdioOptions {
  const leaked = inheritableFds()
  if (!leaked.length) return ['pipe', 'pipe', 'pipe']
  devNull ??= openSync('/dev/null', 'r')
  const stdio: Array<'pipe' | 'ignore' | number> = ['pipe', 'pipe', 'pipe']
  const highest = Math.max(...leaked)
  const covered = new Set(leaked)
  for (let fd = 3; fd <= highest; fd++) stdio.push(covered.has(fd) ? devNull : 'ignore')
  return stdio
}

/** The harness's descriptors above 2 that a child would inherit (not close-on-exec). */
function inheritableFds(): number[] {
  if (process.platform === 'win32') return []
  const linux = process.platform === 'linux'
  let entries: string[]
  try {
    entries = readdirSync(linux ? '/proc/self/fd' : '/dev/fd')
  } catch {
    return []
  }
  const out: number[] = []
  for (const entry of entries) {
    const fd = Number(entry)
    if (!Number.isInteger(fd) || fd <= 2 || fd === devNull) continue
    if (linux) {
      let info: string
      try {
        info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
      } catch {
        continue // closed since (the listing's own descriptor)
      }
      const flags = /^flags:\s*([0-7]+)/m.exec(info)
      if (flags && (Number.parseInt(flags[1]!, 8) & O_CLOEXEC) !== 0) continue
    }
    out.push(fd)
  }
  return out
}
