import { existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import type { IsolationInfo } from '../core/agent.js'
import { InputError } from '../core/errors.js'
import type { Launch } from './agent-process.js'
import { agentEnv } from './agent-env.js'
import type { IsolatedSpec } from './agent-spec.js'
import { CHILD_RUNNER_SOURCE } from './child-runner-source.js'
import { refuseLinksOutside, scanAgentFolders } from './hardened/links.js'
import { nodeModulesLayout, ownPackageRoot } from './node-modules.js'
import { permissionArgs, readableRoots } from './permission.js'
import { bwrapArgs } from './sandbox/bwrap.js'
import { probeSandbox } from './sandbox/probe.js'
import { resolveRuntime } from './sandbox/runtime.js'
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, underLimits } from './sandbox/limits.js'
import { safeRealpath } from './fs-probe.js'

/** What the CLI's `--isolate` and the runners' `isolate:` name for agents that run in their own process. */
export type IsolateLevel = 'sandbox' | 'process'

export interface WallOptions {
  /** Working directory: relative paths, and the folder a command agent would otherwise start in. */
  cwd: string
  /** `sandbox`, `process`, or `auto` (default): the sandbox when bwrap works here, else `process` with one warning. */
  level?: IsolateLevel | 'auto'
  /** `none`: no network for the agent (sandbox only; see docs/isolation.md for the gateway). Default `open`. */
  network?: 'open' | 'none'
  /** The run's data files and folders: a hard link to one, or one inside the agent's folder, is refused. */
  protectedPaths?: readonly string[]
  /** Variables the harness sets for the agent (the model gateway's); only their four names pass. */
  env?: Record<string, string>
  /** Names the user passes on from the harness's environment (`--agent-env NAME`). */
  passEnv?: readonly string[]
  /** Memory, processes and /tmp of a sandboxed agent (default `DEFAULT_SANDBOX_LIMITS`). */
  sandboxLimits?: Partial<SandboxLimits>
  /** Heap limit of a module agent's process in MB (`--max-old-space-size`). Default 2048. */
  maxOldSpaceMb?: number
  allowChildProcess?: boolean
  allowWorker?: boolean
  allowAddons?: boolean
  /** Where the one warning line goes when `auto` falls back to `process` (default: stderr). */
  warn?: (line: string) => void
}

let warned = false

/** The level an agent runs under: `auto` resolves once per process (one warning line when bwrap is missing). */
function chooseLevel(
  level: IsolateLevel | 'auto' | undefined,
  warn?: (line: string) => void,
): { level: IsolateLevel; tool: { path: string; version: string } | null } {
  const requested = level ?? 'auto'
  if (requested === 'process') return { level: 'process', tool: null }
  const probe = probeSandbox()
  if (probe.ok) return { level: 'sandbox', tool: { path: probe.path, version: probe.version } }
  if (requested === 'sandbox')
    throw new InputError(
      `--isolate sandbox: ${probe.missing}; install it, or run with --isolate process (Node's permission model, weaker)`,
    )
  if (!warned) {
    warned = true
    ;(warn ?? ((l) => process.stderr.write(`${l}\n`)))(
      `warning: no OS sandbox for isolated agents: ${probe.missing}; they run under --isolate process (Node's permission model, weaker; docs/isolation.md)`,
    )
  }
  return { level: 'process', tool: null }
}

const jitiModule = () => join(dirname(createRequire(import.meta.url).resolve('jiti')), 'jiti.mjs')

/** The bundled datasets of this package: always the run's data, whatever else it names. */
function bundledData(): string[] {
  const own = ownPackageRoot()
  return own && existsSync(join(own, 'datasets')) ? [join(own, 'datasets')] : []
}

/**
 * The process an isolated agent runs in, and what its wall is: the OS sandbox (bubblewrap: only the runtime, the
 * agent's folder and its node_modules minus this package exist), or the hardened permission model (module agents;
 * command agents are then unrestricted). Refuses, with an `InputError` naming the link, an agent whose folder
 * holds a way to the run's data.
 */
export function planLaunch(
  spec: IsolatedSpec,
  opts: WallOptions & { log?: (chunk: string) => void },
): { launch: Launch; isolation: IsolationInfo } {
  const { level, tool } = chooseLevel(opts.level, opts.warn)
  if (opts.network === 'none' && level !== 'sandbox')
    throw new InputError(
      "--agent-network none needs the OS sandbox (--isolate sandbox, bubblewrap); Node's permission model cannot cut the network",
    )
  const sandboxed = level === 'sandbox'
  const env = agentEnv({ set: opts.env, pass: opts.passEnv, sandboxed })
  const protectedPaths = [...bundledData(), ...(opts.protectedPaths ?? [])].map((p) => resolve(opts.cwd, p))
  const label = spec.type === 'module' ? `module ${spec.display}` : `cmd:${spec.display}`
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.sandboxLimits }
  const tmpBytes = limits.tmpMb * 2 ** 20

  // The key file the model gateway reads (`.env` where the run starts): never visible to an agent.
  const harnessKeyFile = resolve(opts.cwd, '.env')

  if (spec.type === 'command') {
    const folders = commandFolders(spec.argv)
    const dataInside = insideOf(folders, protectedPaths)
    const scan = scanAgentFolders({
      scan: folders,
      skip: dataInside,
      moduleFolders: [],
      protectedPaths,
      label,
      linksInModules: false,
    })
    const hidden = [...dataInside, ...scan.keyFiles, ...scan.packageCopies, ...insideOf(folders, [harnessKeyFile])]
    if (!sandboxed) {
      if (existsSync(harnessKeyFile) || scan.keyFiles.length) {
        ;(opts.warn ?? ((l) => process.stderr.write(`${l}\n`)))(
          `warning: ${label} runs unrestricted under --isolate process: it can read ${existsSync(harnessKeyFile) ? harnessKeyFile : scan.keyFiles[0]} (API keys) and whatever your user can (docs/isolation.md)`,
        )
      }
      return {
        launch: { command: spec.argv[0]!, args: spec.argv.slice(1), cwd: opts.cwd, env, log: opts.log, detached: true },
        isolation: { level: 'process', tool: null, version: null, files: 'unrestricted' },
      }
    }
    const runtime = resolveRuntime(spec.argv[0]!, opts.cwd)
    const cwd = folders[0] ?? '/tmp'
    const mounts = [...runtime.mounts, ...folders]
    const args = bwrapArgs(
      {
        bwrap: tool!.path,
        readOnly: mounts,
        hide: [...hidden, ...insideOf(runtime.mounts, [...protectedPaths, harnessKeyFile])],
        readOnlyAfter: [],
        systemPackages: runtime.systemPackages,
        tmpBytes,
        cwd,
        network: opts.network ?? 'open',
      },
      runtime.command,
      spec.argv.slice(1),
    )
    return {
      launch: {
        ...underLimits(tool!.path, args, limits),
        cwd: opts.cwd,
        env,
        log: opts.log,
        sandbox: `bubblewrap ${tool!.version}`,
      },
      isolation: { level: 'sandbox', tool: 'bubblewrap', version: tool!.version, files: 'sandbox' },
    }
  }

  const agentDir = dirname(spec.path)
  const typescript = /\.((c|m)?ts|js)$/.test(spec.path) // loaded through jiti (TypeScript, and ESM .js outside a module package)
  const jiti = typescript ? [jitiModule()] : []
  const jitiDir = typescript ? dirname(dirname(jiti[0]!)) : null
  const layout = nodeModulesLayout(agentDir)
  // The run's data, reports and caches inside the agent's folder (an agent at the project's root) stay out of reach,
  // and so do the key files there.
  const dataInside = insideOf([agentDir], protectedPaths)
  const scan = scanAgentFolders({
    scan: [agentDir],
    skip: [...dataInside, ...layout.denied],
    moduleFolders: layout.folders,
    protectedPaths,
    label,
    linksInModules: !sandboxed,
  })
  const hidden = [
    ...dataInside,
    ...scan.keyFiles,
    ...scan.packageCopies.filter((p) => !layout.denied.includes(p)),
    ...insideOf([agentDir], [harnessKeyFile]),
  ]
  const readable = readableRoots(agentDir, jitiDir ? [jitiDir] : [], layout, hidden)
  // Under the sandbox a link leads only to what is mounted; under the permission model it is checked.
  if (!sandboxed) refuseLinksOutside(scan, readable)
  const nodeArgs = [
    ...permissionArgs(readable, opts),
    `--max-old-space-size=${opts.maxOldSpaceMb ?? 2048}`,
    '--input-type=module',
    '-e',
    CHILD_RUNNER_SOURCE,
    '--',
    spec.path,
    ...jiti,
  ]
  if (!sandboxed) {
    return {
      launch: { command: process.execPath, args: nodeArgs, cwd: agentDir, env, log: opts.log, detached: true },
      isolation: {
        level: 'process',
        tool: 'node-permission-model',
        version: process.version,
        files: 'agent folder and node_modules',
      },
    }
  }
  const runtime = resolveRuntime(process.execPath, opts.cwd)
  const args = bwrapArgs(
    {
      bwrap: tool!.path,
      readOnly: [...runtime.mounts, agentDir, ...layout.folders],
      hide: [...layout.denied, ...hidden],
      readOnlyAfter: jitiDir ? [jitiDir] : [],
      tmpBytes,
      cwd: agentDir,
      network: opts.network ?? 'open',
    },
    runtime.command,
    nodeArgs,
  )
  return {
    launch: {
      ...underLimits(tool!.path, args, limits),
      cwd: agentDir,
      env,
      log: opts.log,
      sandbox: `bubblewrap ${tool!.version}`,
    },
    isolation: { level: 'sandbox', tool: 'bubblewrap', version: tool!.version, files: 'sandbox' },
  }
}

/** A command agent's own folders: those of the files and folders on its command line (its script's). */
function commandFolders(argv: readonly string[]): string[] {
  const out: string[] = []
  for (const arg of argv.slice(1)) {
    if (!arg.startsWith('/') || !existsSync(arg)) continue
    const dir = statSync(arg).isDirectory() ? arg : dirname(arg)
    if (!out.includes(dir)) out.push(dir)
  }
  return out
}

/** The protected paths inside any of the folders (resolved through links). */
function insideOf(folders: readonly string[], protectedPaths: readonly string[]): string[] {
  const out: string[] = []
  for (const folder of folders) {
    const real = safeRealpath(folder)
    if (!real) continue
    for (const data of protectedPaths) {
      const d = safeRealpath(data)
      if (d && d !== real && d.startsWith(`${real}/`) && !d.slice(real.length).split('/').includes('node_modules'))
        out.push(join(folder, d.slice(real.length + 1)))
    }
  }
  return [...new Set(out)]
}

/** The runners' `isolate:` option: true (default: the sandbox when it works, else `process`), `'sandbox'`, `'process'`, or false / `'none'` (in this process). */
export type IsolateOption = boolean | IsolateLevel | 'none'

export function isolateOption(value: unknown): { isolate: boolean; level: IsolateLevel | 'auto' } {
  if (value === undefined || value === true) return { isolate: true, level: 'auto' }
  if (value === false || value === 'none') return { isolate: false, level: 'auto' }
  if (value === 'sandbox' || value === 'process') return { isolate: true, level: value }
  throw new InputError(
    `isolate: ${JSON.stringify(value)} is not a level; use true, false, 'sandbox', 'process' or 'none'`,
  )
}
