import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { InputError } from '../../core/errors.js'
import { checkJsonDepth } from '../../core/json-depth.js'
import { writeFileAtomic } from '../../files/write-atomic.js'
import { type DataforgeReporterOptions, EvalReporterBase } from '../reporter-base.js'
import { finishJestRun, type ProjectCommit } from './run-end.js'
import { type SideLine, SideLineSchema } from '../../jest/side-file.js'

/**
 * Jest's `--shard=i/n` runs are separate processes, often on separate machines. Each shard's reporter keeps its
 * finished tests in `<outputDir>.jest-shards/shard-<i>-of-<n>.json` with the reporter options that gate them
 * (beside the report folder, not in it: a verified report folder holds only what its writer listed); the
 * `merge-shards` command reads all n files and ends the run as one unsharded run would (same report, gates and
 * exit code).
 */

/** The shard files' folder of a report folder. */
function shardDirOf(outputDir: string): string {
  return `${outputDir}.jest-shards`
}

/**
 * The reporter options a shard file keeps: the JSON ones that shape the report and its gates (thresholds,
 * baseline, formats, statsSeed, minPassesPerCase, outputDir…), checked again when the merge builds its reporter.
 */
const MergeOptionsSchema = z.record(z.string(), z.unknown())

const ShardFileSchema = z.object({
  /** 2: lines hold each finished test (its meta), the merge builds the records; 1 held records. */
  format: z.literal('dataforge-evals jest shard 2'),
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }),
  /** A name, path or test filter other than the shard narrowed the run. */
  filtered: z.boolean(),
  /** The commit the shard ran on: the shards of one run share it. */
  project: z.object({ commit: z.string().nullable(), dirty: z.boolean().nullable() }),
  /** When the shard's run started (ISO 8601 UTC); absent in files written before it was kept. */
  runDateUtc: z.iso.datetime().optional(),
  options: MergeOptionsSchema,
  lines: z.array(SideLineSchema),
})
type ShardFile = z.infer<typeof ShardFileSchema>

export interface ShardSpec {
  index: number
  count: number
}

/** Jest 30's `globalConfig.shard` (`{ shardIndex, shardCount }`), or null when the run is not sharded. */
export function shardOf(config: unknown): ShardSpec | null {
  const s = config as { shardIndex?: unknown; shardCount?: unknown } | null | undefined
  if (!s || typeof s.shardIndex !== 'number' || typeof s.shardCount !== 'number') return null
  return { index: s.shardIndex, count: s.shardCount }
}

function mergeOptionsOf(options: DataforgeReporterOptions): z.infer<typeof MergeOptionsSchema> {
  // Which files are evals was settled by the shard; printing is the merge's own.
  const { evalFiles: _files, print: _print, ...kept } = options
  return JSON.parse(JSON.stringify(kept))
}

/** Writes this shard's finished tests (`testPath` relative to the root) beside its report. */
export async function writeShardFile(
  outputDir: string,
  shard: ShardSpec,
  run: {
    lines: SideLine[]
    filtered: boolean
    options: DataforgeReporterOptions
    project: ProjectCommit
    runDateUtc: string
  },
): Promise<string> {
  const dir = shardDirOf(outputDir)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `shard-${shard.index}-of-${shard.count}.json`)
  const file: ShardFile = {
    format: 'dataforge-evals jest shard 2',
    shard,
    filtered: run.filtered,
    project: run.project,
    runDateUtc: run.runDateUtc,
    options: mergeOptionsOf(run.options),
    lines: run.lines,
  }
  await writeFileAtomic(path, `${JSON.stringify(file)}\n`)
  return path
}

function readShardFile(path: string): ShardFile {
  let json: unknown
  const text = readFileSync(path, 'utf8')
  checkJsonDepth(text, (line) => `${path}: line ${line}`)
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new InputError(`${path}: not a readable shard file (${(error as Error).message})`)
  }
  const parsed = ShardFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new InputError(
      `${path}: not a dataforge-evals Jest shard file (${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'})`,
    )
  }
  return parsed.data
}

/** The shard files named by `inputs`: files, or folders whose `shard-*-of-*.json` files are taken. */
export function shardPaths(inputs: readonly string[], cwd: string): string[] {
  const paths: string[] = []
  for (const input of inputs) {
    const path = resolve(cwd, input)
    let isDir: boolean
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      throw new InputError(`${input}: no such file or folder`)
    }
    if (!isDir) {
      paths.push(path)
      continue
    }
    const found = readdirSync(path).filter((n) => /^shard-\d+-of-\d+\.json$/.test(n))
    if (found.length === 0) throw new InputError(`${input}: holds no shard-<i>-of-<n>.json files`)
    paths.push(...found.sort().map((n) => join(path, n)))
  }
  return paths
}

/** Reads and checks a complete set of shards: one file per shard 1..n, all of one commit, with the same options. */
function readShards(paths: readonly string[]): {
  lines: SideLine[]
  filtered: boolean
  options: DataforgeReporterOptions
  project: ProjectCommit
  /** The first shard's start: when the run started (the merge's own time when a file predates the field). */
  runDateUtc: string
} {
  const files = paths.map((path) => ({ path, file: readShardFile(path) }))
  const count = files[0]!.file.shard.count
  const seen = new Map<number, string>()
  for (const { path, file } of files) {
    if (file.shard.count !== count)
      throw new InputError(
        `${path}: shard ${file.shard.index}/${file.shard.count}, but ${files[0]!.path} is of ${count} shards`,
      )
    const twin = seen.get(file.shard.index)
    if (twin) throw new InputError(`${path}: shard ${file.shard.index}/${count} given twice (also ${twin})`)
    seen.set(file.shard.index, path)
    if (file.project.commit !== files[0]!.file.project.commit) {
      throw new InputError(
        `${path}: ran on commit ${file.project.commit ?? '(none)'}, ${files[0]!.path} on ${files[0]!.file.project.commit ?? '(none)'}; merge the shards of one run`,
      )
    }
    if (JSON.stringify(file.options) !== JSON.stringify(files[0]!.file.options)) {
      throw new InputError(
        `${path}: reporter options differ from ${files[0]!.path}'s; the shards of one run share one Jest config`,
      )
    }
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i))
  if (missing.length)
    throw new InputError(
      `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}: merge needs all ${count} shards`,
    )
  return {
    lines: files.flatMap(({ file }) => file.lines),
    filtered: files.some(({ file }) => file.filtered),
    options: files[0]!.file.options as DataforgeReporterOptions,
    project: {
      commit: files[0]!.file.project.commit,
      dirty: files.some(({ file }) => file.project.dirty) ? true : files[0]!.file.project.dirty,
    },
    runDateUtc: firstStart(files.map(({ file }) => file.runDateUtc)),
  }
}

/** The earliest of the shards' starts (ISO 8601 UTC, so the least string); now when a shard did not keep one. */
function firstStart(starts: ReadonlyArray<string | undefined>): string {
  let first: string | undefined
  for (const start of starts) {
    if (start === undefined) return new Date().toISOString()
    if (first === undefined || start < first) first = start
  }
  return first ?? new Date().toISOString()
}

class ShardMerge extends EvalReporterBase {
  constructor(
    options: DataforgeReporterOptions,
    root: string,
    private readonly write: (text: string) => void,
  ) {
    super(options, root)
  }

  protected override print(text: string): void {
    if (text) this.write(`${text}\n`)
  }

  // merge-shards returns its exit code.
  protected override failRun(): void {}
}

/**
 * Merges the shards of one Jest run into the report an unsharded run writes (into the reporter's `outputDir`,
 * resolved against `root`: run it where Jest ran), stamped with the shards' commit. Returns the gate failures.
 */
export async function mergeShards(
  paths: readonly string[],
  root: string,
  write: (text: string) => void,
): Promise<{ failures: string[]; outputDir: string; records: number }> {
  const { lines, filtered, options, project, runDateUtc } = readShards(paths)
  const merge = new ShardMerge(options, root, write)
  const { failures } = await finishJestRun(merge, lines, { filtered, runDateUtc, project })
  return { failures, outputDir: merge.outputDir, records: lines.length }
}
