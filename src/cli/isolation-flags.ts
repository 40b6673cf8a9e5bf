import { InputError } from '../core/errors.js'
import { refusedEnvName } from '../isolation/agent-env.js'
import type { IsolateLevel } from '../isolation/wall.js'
import type { SandboxLimits } from '../isolation/sandbox/limits.js'
import { parseIntegerFlag } from './flags.js'

/** The flags that choose the wall around module and command agents (`run`, `qa`). */
export const ISOLATION_FLAGS = {
  isolate: { type: 'string' },
  'no-isolate': { type: 'boolean' },
  'agent-network': { type: 'string' },
  'agent-env': { type: 'string', multiple: true },
  'sandbox-memory-mb': { type: 'string' },
  'sandbox-procs': { type: 'string' },
  'sandbox-tmp-mb': { type: 'string' },
} as const

export const ISOLATION_HELP = `  --isolate LEVEL        sandbox (OS sandbox: bubblewrap), process (Node's permission model; command agents
                         unrestricted) or none (module agents in this process: trusted code). Default: sandbox
                         when bwrap works here, else process with one warning line (docs/isolation.md)
  --no-isolate           the same as --isolate none
  --agent-network MODE   open (default) or none: the sandboxed agent gets no network at all, the model
                         gateway on 127.0.0.1 included (so not with --llm or DATAFORGE_LLM)
  --agent-env NAME       pass this variable of your environment on to isolated agents (repeatable);
                         they get only PATH, locale, HOME/TMPDIR and the model gateway's variables otherwise
  --sandbox-memory-mb N  data memory (heap) of each sandboxed agent process (default 4096; 0: no limit)
  --sandbox-procs N      processes your user may run, set on sandboxed agents (default: no limit; Linux counts
                         all of your user's processes on the machine)
  --sandbox-tmp-mb N     size of a sandboxed agent's private /tmp (default 512)`

export interface IsolationChoice {
  /** False: module agents load into this process. */
  isolate: boolean
  level: IsolateLevel | 'auto'
  network: 'open' | 'none'
  passEnv: string[]
  /** The sandbox's limits the flags set (the rest default). */
  limits: Partial<SandboxLimits>
}

type IsolationValues = {
  isolate?: string
  'no-isolate'?: boolean
  'agent-network'?: string
  'agent-env'?: string[]
  'sandbox-memory-mb'?: string
  'sandbox-procs'?: string
  'sandbox-tmp-mb'?: string
}

export function parseIsolationFlags(values: IsolationValues): IsolationChoice {
  const raw = values.isolate
  if (raw !== undefined && !['sandbox', 'process', 'none'].includes(raw))
    throw new InputError(`--isolate: "${raw}" is not a level; use sandbox, process or none`)
  if (values['no-isolate'] && raw !== undefined && raw !== 'none')
    throw new InputError(`--no-isolate and --isolate ${raw} disagree; give one`)
  const level = values['no-isolate'] ? 'none' : ((raw ?? 'auto') as IsolateLevel | 'none' | 'auto')
  const network = values['agent-network'] ?? 'open'
  if (network !== 'open' && network !== 'none')
    throw new InputError(`--agent-network: "${network}" is not a mode; use open or none`)
  if (network === 'none' && level === 'none')
    throw new InputError('--agent-network none needs an isolated agent; it cannot apply with --isolate none')
  const passEnv = (values['agent-env'] ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  for (const name of passEnv) {
    const why = refusedEnvName(name)
    if (why) throw new InputError(`--agent-env ${name}: not passed on (${why})`)
  }
  const limits: Partial<SandboxLimits> = {}
  const memory = values['sandbox-memory-mb']
  if (memory !== undefined) limits.memoryMb = parseIntegerFlag('sandbox-memory-mb', memory, 4096, { min: 0 }) || null
  if (values['sandbox-procs'] !== undefined)
    limits.procs = parseIntegerFlag('sandbox-procs', values['sandbox-procs'], 0, { min: 1 })
  if (values['sandbox-tmp-mb'] !== undefined)
    limits.tmpMb = parseIntegerFlag('sandbox-tmp-mb', values['sandbox-tmp-mb'], 512, { min: 1 })
  return { isolate: level !== 'none', level: level === 'none' ? 'auto' : level, network, passEnv, limits }
}

/**
 * `--agent-network none` with a model upstream is refused before any agent starts: bubblewrap gives the agent a
 * network namespace of its own, whose 127.0.0.1 is not the host's, so the gateway is out of its reach too.
 */
export function refuseNetworkNoneWithUpstream(
  values: { 'agent-network'?: unknown; llm?: unknown },
  env: Record<string, string | undefined>,
): void {
  if (values['agent-network'] !== 'none') return
  const upstream =
    typeof values.llm === 'string'
      ? `--llm ${values.llm}`
      : env['DATAFORGE_LLM']?.trim()
        ? `DATAFORGE_LLM=${env['DATAFORGE_LLM'].trim()}`
        : null
  if (!upstream) return
  throw new InputError(
    `--agent-network none cuts an isolated agent off from the model gateway too (the sandbox's own network namespace has its own 127.0.0.1), so its model calls through ${upstream} could not be made; drop one of the two (docs/isolation.md). The built-in model agents run in this process and are not affected`,
  )
}
