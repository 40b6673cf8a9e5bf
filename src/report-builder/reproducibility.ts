import { execFile, execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { ReportDigestOf } from '../core/digest-of.js'
import { sha256Hex } from '../core/hash.js'
import { compareText } from '../core/order.js'
import type { RunRecord } from '../core/run-record.js'
import type { IsolationInfo } from '../core/agent.js'

export interface Reproducibility {
  projectCommit: string | null
  /** Whether the working tree had uncommitted changes when the run started. */
  projectDirty: boolean | null
  datasets: Array<{
    id: string
    origin: string
    source: string
    seed: number | null
    /** Generator options (rows, errorRate) that, with the seed, regenerate the data; null for files. */
    options: Record<string, string | number | boolean> | null
    /** null for data known only from its records (question suites, conversations). */
    rows: number | null
    columns: number | null
    /**
     * `of`: what the sha256 is taken over (file bytes, the CSV serialization of a generated table, the tables'
     * canonical JSON, or the list of the cases' digests: see `ReportDigestOf`).
     */
    dirty: { sha256: string; bytes: number | null; path: string | null; of?: ReportDigestOf }
    clean: { sha256: string; bytes: number | null; path: string | null; of?: ReportDigestOf }
    /** For `of: 'digest-list'`: how many distinct case digests the list holds. */
    digests?: number
  }>
  seeds: number[]
  models: string[]
  /** The model gateway's upstreams (preset and base URL, a loopback port masked); empty when no run had one. */
  llmUpstreams: string[]
  agents: string[]
  /** The wall each agent ran behind (one entry per agent and wall); absent in reports written before it was recorded. */
  isolation?: Array<{ agent: string } & IsolationInfo>
  runDateUtc: string
  dependencyVersions: Record<string, string>
  cache: { cachedRuns: number; cachedCalls: number; liveCalls: number }
  nondeterminismNote: string
}

const NONDETERMINISM_NOTE =
  'Dataset generation, grading, the baseline agent and bootstrap intervals are deterministic given the seeds above. ' +
  'Hosted models may answer differently for the same request (sampling, silent model updates, load-dependent ' +
  'routing) even at temperature 0; runs answered from the record/replay cache are deterministic. Runtimes vary ' +
  'with machine load. Reports compare only when dataset hashes, seeds, model ids and adapter code are identical.'

type ProjectCommit = { commit: string | null; dirty: boolean | null }

const NO_COMMIT: ProjectCommit = { commit: null, dirty: null }

// One git process gives both: the branch header holds HEAD's commit, and any other line is a change to a
// tracked file (untracked files are not counted).
const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '--untracked-files=no']

function parseStatus(output: string): ProjectCommit {
  const lines = output.split('\n').filter((line) => line.length > 0)
  const oid = lines
    .find((line) => line.startsWith('# branch.oid '))
    ?.slice('# branch.oid '.length)
    .trim()
  // A repository without a commit yet ("(initial)") has no commit to name.
  if (!oid || !/^[0-9a-f]{40,64}$/.test(oid)) return NO_COMMIT
  return { commit: oid, dirty: lines.some((line) => !line.startsWith('#')) }
}

/** The commit of the project being evaluated: the git repository around `cwd`. */
export function projectCommit(cwd: string): ProjectCommit {
  try {
    return parseStatus(execFileSync('git', STATUS_ARGS, { cwd, stdio: ['ignore', 'pipe', 'ignore'] }).toString())
  } catch {
    return NO_COMMIT
  }
}

/** `projectCommit` without blocking: what a reporter starts while the tests run and awaits when they end. */
export function projectCommitAsync(cwd: string): Promise<ProjectCommit> {
  return new Promise((resolve) => {
    execFile('git', STATUS_ARGS, { cwd }, (error, stdout) => resolve(error ? NO_COMMIT : parseStatus(String(stdout))))
  })
}

const TRACKED_PACKAGES = ['dataforge-evals', 'vitest', 'vite', 'openai', 'zod', 'csv-parse', 'undici', 'typescript']

/** Versions of Node and the packages that shape results, read from the installed package.json files. */
let versionsCache: Record<string, string> | undefined

export function dependencyVersions(): Record<string, string> {
  if (versionsCache) return { ...versionsCache }
  const out: Record<string, string> = { node: process.versions.node }
  const here = dirname(fileURLToPath(import.meta.url))
  for (const name of TRACKED_PACKAGES) {
    const version = findInstalledVersion(here, name)
    if (version) out[name] = version
  }
  versionsCache = out
  return { ...out }
}

function findInstalledVersion(from: string, name: string): string | null {
  let dir = from
  for (;;) {
    const own = join(dir, 'package.json')
    if (existsSync(own)) {
      try {
        const pkg = JSON.parse(readFileSync(own, 'utf8')) as { name?: string; version?: string }
        if (pkg.name === name && pkg.version) return pkg.version
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    const candidate = join(dir, 'node_modules', name, 'package.json')
    if (existsSync(candidate)) {
      try {
        return (JSON.parse(readFileSync(candidate, 'utf8')) as { version?: string }).version ?? null
      } catch {
        return null
      }
    }
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

export function buildReproducibility(input: {
  records: readonly RunRecord[]
  datasets: readonly DatasetInfo[]
  cwd: string
  runDateUtc: string
  /** The project's commit, when the caller already looked it up. */
  project?: { commit: string | null; dirty: boolean | null }
}): Reproducibility {
  const { commit, dirty } = input.project ?? projectCommit(input.cwd)
  const uniqueSorted = <T>(xs: T[]) => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const datasets: ReproDataset[] = [...new Map(input.datasets.map((d) => [`${d.id}\u0000${d.seed ?? ''}`, d])).values()]
    .sort((a, b) => (a.id === b.id ? (a.seed ?? 0) - (b.seed ?? 0) : a.id < b.id ? -1 : 1))
    .map((d) => ({
      id: d.id,
      origin: d.origin,
      source: d.source,
      seed: d.seed ?? null,
      options: d.options ?? null,
      rows: d.rows,
      columns: d.columns,
      dirty: {
        sha256: d.dirty.sha256,
        bytes: d.dirty.bytes,
        path: portablePath(d.dirty.path, input.cwd),
        ...(d.dirty.of ? { of: d.dirty.of } : {}),
      },
      clean: {
        sha256: d.clean.sha256,
        bytes: d.clean.bytes,
        path: portablePath(d.clean.path, input.cwd),
        ...(d.clean.of ? { of: d.clean.of } : {}),
      },
    }))
  datasets.push(...datasetsFromRecords(input.records, datasets))
  return {
    projectCommit: commit,
    projectDirty: dirty,
    datasets,
    seeds: uniqueSorted(input.records.map((r) => r.seed)),
    models: uniqueSorted(input.records.map((r) => r.model).filter((m): m is string => m !== null)),
    llmUpstreams: uniqueSorted(
      input.records.map((r) => r.llmUpstream).filter((u): u is string => typeof u === 'string'),
    ),
    agents: uniqueSorted(input.records.map((r) => r.agent)),
    isolation: isolationOf(input.records),
    runDateUtc: input.runDateUtc,
    dependencyVersions: dependencyVersions(),
    cache: {
      cachedRuns: input.records.filter((r) => r.cached).length,
      cachedCalls: input.records.reduce((a, r) => a + r.usage.cachedCalls, 0),
      liveCalls: input.records.reduce((a, r) => a + Math.max(0, r.usage.calls - r.usage.cachedCalls), 0),
    },
    nondeterminismNote: NONDETERMINISM_NOTE,
  }
}

type ReproDataset = Reproducibility['datasets'][number]

/**
 * The data of records no `DatasetInfo` describes (question suites and conversations, whose digest is of the
 * tables' canonical JSON; any run read back from runs.jsonl alone), sorted: repair data one entry per digest
 * pair, question data one per dataset id. A question dataset
 * whose cases all used the same data gives that digest; one whose cases used different tables gives the sha256
 * of their sorted distinct digests (one per line) and how many there are, so two runs on the same data give
 * the same entry. `described`: entries already there; records whose digests they hold are left out.
 */
export function datasetsFromRecords(
  records: readonly RunRecord[],
  described: readonly Pick<ReproDataset, 'id' | 'dirty' | 'clean'>[] = [],
): ReproDataset[] {
  const known = new Set(described.map((d) => `${d.id}\u0000${d.dirty.sha256}\u0000${d.clean.sha256}`))
  const byId = new Map<string, { id: string; dirty: Set<string>; clean: Set<string>; repair: boolean }>()
  for (const r of records) {
    const h = r.datasetSha256
    if (!h || known.has(`${r.dataset}\u0000${h.dirty}\u0000${h.clean}`)) continue
    // Repair data (a file pair, a seeded table) keeps one entry per digest pair, as its description would;
    // question data one per dataset id, however many tables its cases had.
    const repair = r.tp !== null
    const key = repair ? `${r.dataset}\u0000${h.dirty}\u0000${h.clean}` : r.dataset
    let entry = byId.get(key)
    if (!entry) {
      entry = { id: r.dataset, dirty: new Set(), clean: new Set(), repair }
      byId.set(key, entry)
    }
    entry.dirty.add(h.dirty)
    entry.clean.add(h.clean)
  }
  return [...byId]
    .sort(([a], [b]) => compareText(a, b))
    .map(([, e]): ReproDataset => {
      const id = e.id
      // Repair digests read back without their description are of file bytes or a CSV serialization: not known which.
      const single: ReportDigestOf | undefined = e.repair ? undefined : 'tables-json'
      const digest = (set: Set<string>): ReproDataset['dirty'] => {
        const list = [...set].sort(compareText)
        return list.length === 1
          ? { sha256: list[0]!, bytes: null, path: null, ...(single ? { of: single } : {}) }
          : { sha256: sha256Hex(list.join('\n')), bytes: null, path: null, of: 'digest-list' as const }
      }
      const count = Math.max(e.dirty.size, e.clean.size)
      return {
        id,
        origin: e.repair ? 'records' : 'questions',
        source: 'run records',
        seed: null,
        options: null,
        rows: null,
        columns: null,
        dirty: digest(e.dirty),
        clean: digest(e.clean),
        ...(count > 1 ? { digests: count } : {}),
      }
    })
}

/** One entry per agent and the wall it ran behind, sorted by agent (records without one are left out). */
function isolationOf(records: readonly RunRecord[]): Array<{ agent: string } & IsolationInfo> {
  const seen = new Map<string, { agent: string } & IsolationInfo>()
  for (const r of records) {
    if (!r.isolation) continue
    const { level, tool, version, files } = r.isolation
    seen.set(JSON.stringify([r.agent, level, tool, version, files]), { agent: r.agent, level, tool, version, files })
  }
  return [...seen.values()].sort((a, b) =>
    a.agent === b.agent ? (a.level < b.level ? -1 : 1) : a.agent < b.agent ? -1 : 1,
  )
}

/** Paths relative to the working folder, so reports from two checkouts diff cleanly. */
function portablePath(path: string | undefined, cwd: string): string | null {
  if (!path) return null
  return isAbsolute(path) ? relative(cwd, path).split('\\').join('/') : path
}
