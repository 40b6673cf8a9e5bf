import { whichSync } from './probe.js'

/** What one sandboxed agent process may use. `null`: no limit. */
export interface SandboxLimits {
  /**
   * Data memory of each of its processes in MiB (RLIMIT_DATA: heap and private writable mappings); allocations
   * past it fail. Not RLIMIT_AS: V8 reserves address space for WebAssembly far beyond what it uses, so an address
   * space limit broke every Node agent's `fetch` (undici's parser is WebAssembly).
   */
  memoryMb: number | null
  /** Processes its user may run (RLIMIT_NPROC). Linux counts every process of your user on the machine, not the sandbox's. */
  procs: number | null
  /** Size of its private /tmp in MiB (a tmpfs: it is memory). */
  tmpMb: number
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { memoryMb: 4096, procs: null, tmpMb: 512 }

let prlimitPath: string | null | undefined

/**
 * The command that starts bwrap under the limits: bubblewrap sets no resource limits itself, so `prlimit`
 * (util-linux) sets them on the process it starts, and they pass to everything in the sandbox. Where prlimit is
 * missing, the command as it is (docs/isolation.md).
 */
export function underLimits(
  command: string,
  args: string[],
  limits: SandboxLimits,
): { command: string; args: string[] } {
  const set = [
    ...(limits.memoryMb !== null ? [`--data=${limits.memoryMb * 2 ** 20}`] : []),
    ...(limits.procs !== null ? [`--nproc=${limits.procs}`] : []),
  ]
  if (!set.length) return { command, args }
  prlimitPath ??= whichSync('prlimit', '/usr/bin:/bin:/usr/sbin:/sbin')
  if (!prlimitPath) return { command, args }
  return { command: prlimitPath, args: [...set, '--', command, ...args] }
}
