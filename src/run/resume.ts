import { closeSync, existsSync, ftruncateSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { counted } from '../stats/number-format.js'
import { basename, dirname, join, resolve } from 'node:path'
import { agentKindOf, type RepairAgent } from '../core/agent.js'
import type { DatasetInfo } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import type { RunRecord } from '../core/run-record.js'
import { recordJson } from '../core/record-json.js'
import { type Transcript, TranscriptSchema } from '../core/transcript.js'
import { commitFiles } from '../files/write-atomic.js'
import { checkOwnFile, openOwnFile } from '../files/own-file.js'
import { LEGACY_STEM, stemFiles, stemOf } from '../files/output-paths.js'
import { parseRunRecordText } from '../files/read-runs.js'
import { recordProblems } from '../core/record-checks.js'
import {
  createJournalKey,
  type JournalKey,
  JournalSealer,
  journalKeyDir,
  openSealedJournal,
  planMac,
  readJournalKey,
  removeJournalKey,
} from './journal-integrity.js'
import { openRunsAppender, type RunsAppender } from './runs-appender.js'

/**
 * Where the journal of a run in progress is: its report's folder and stem. The plan is STEM.run.partial.json and
 * the finished trials STEM.runs.partial.jsonl (run.partial.json and runs.partial.jsonl for the stem `report`);
 * both go when the run's reports are written. One folder holds the journals of several reports.
 */
interface JournalPlace {
  dir: string
  stem: string
}

export function journalFiles(place: JournalPlace): {
  plan: string
  journal: string
  planName: string
  journalName: string
  transcripts: string
} {
  const files = stemFiles(place.stem)
  return {
    plan: join(place.dir, files.plan),
    journal: join(place.dir, files.journal),
    planName: files.plan,
    journalName: files.journal,
    transcripts: join(place.dir, files.transcriptsJournal),
  }
}

const PLAN_SUFFIX = stemFiles('x').plan.slice(1)
const LEGACY_PLAN = stemFiles(LEGACY_STEM).plan

/** What to give `--resume` for a report's run: its folder for the stem `report`, else the folder and stem (`reports/smoke`). */
export function resumeTarget(displayDir: string, stem: string): string {
  return stem === LEGACY_STEM ? displayDir : join(displayDir, stem)
}

/**
 * The interrupted run `--resume PATH` names: PATH is the report's folder (which must hold exactly one interrupted
 * run), its stem inside the folder (`reports/smoke`), or one of its files (`reports/smoke.md`).
 */
export function findInterruptedRun(path: string): JournalPlace {
  const info = statSync(path, { throwIfNoEntry: false })
  if (info?.isDirectory()) {
    const stems = readdirSync(path)
      .filter((name) => name === LEGACY_PLAN || name.endsWith(PLAN_SUFFIX))
      .map((name) => (name === LEGACY_PLAN ? LEGACY_STEM : name.slice(0, -PLAN_SUFFIX.length)))
      .sort()
    if (stems.length > 1) {
      throw new InputError(
        `${path} holds ${stems.length} interrupted runs (${stems.join(', ')}); name one: dataforge-evals run --resume ${join(path, stems[0]!)}`,
      )
    }
    return { dir: path, stem: stems[0] ?? LEGACY_STEM }
  }
  const dir = dirname(path)
  const name = basename(path)
  const asStem = existsSync(journalFiles({ dir, stem: name }).plan)
  return { dir, stem: asStem ? name : stemOf(name) }
}

/**
 * The transcripts an interrupted run journaled: each whole line that is a transcript. A torn last line (the run
 * was killed mid-write) is skipped; its trial's record was not written after it, so the trial runs again.
 */
function readJournaledTranscripts(path: string): Transcript[] {
  if (!checkOwnFile(path)) return []
  const out: Transcript[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      const parsed = TranscriptSchema.safeParse(JSON.parse(line))
      if (parsed.success) out.push(parsed.data)
    } catch {
      // a torn line
    }
  }
  return out
}

export type RunOptions = Record<string, string | string[] | boolean | undefined>

/** What `--resume` needs to run the missing cells exactly as the interrupted run would have. */
interface RecordedRun {
  journalVersion: 2
  /** The folder relative flags were given against. */
  cwd: string
  /** The flags as typed, without --resume, --quiet and --help. */
  options: RunOptions
  /** The environment variables that configure a run as flags do (data folder, cache mode and folder). */
  env?: Record<string, string | null>
  agents: Array<{ name: string; kind: string; model: string | null; provider: string | null; sha256?: string | null }>
  /** The sha256s of every (dataset, seed) the run loaded, and its cells that differ (what bounds tp + fn). */
  datasets: Array<{ id: string; seed: number | null; dirty: string; clean: string; dirtyCells?: number }>
  runDateUtc: string
  /** Id of the run's journal key in the state folder (journal-integrity.ts), and the plan's seal. */
  journalKey?: string
  planMac?: string
}

/** One cell of a run's grid: what `--resume` looks for in the journal. */
export interface TrialCell {
  agent: string
  dataset: string
  trial: number
  seed: number
}

const NOT_RECORDED = new Set(['resume', 'quiet', 'help'])
/** Environment variables that change what a run does, recorded and compared like flags. */
const RUN_ENV = ['DATAFORGE_DATA_DIR', 'DATAFORGE_CACHE', 'DATAFORGE_CACHE_DIR'] as const

export function runEnvOf(env: Record<string, string | undefined>): Record<string, string | null> {
  return Object.fromEntries(RUN_ENV.map((name) => [name, env[name] ?? null]))
}
/** Flags holding paths: compared after resolving against the folder each run was started in. */
const PATH_FLAGS = new Set(['dirty-csv', 'clean-csv', 'data-dir', 'output', 'output-json', 'cache-dir', 'prices'])

function cellKey(cell: TrialCell): string {
  return JSON.stringify([cell.agent, cell.dataset, cell.trial, cell.seed])
}

export interface ReadRun {
  place: JournalPlace
  recorded: RecordedRun
  records: RunRecord[]
  /** The journal line of each record. */
  lines: number[]
  key: JournalKey
  /** The last seal of the chain, which the resumed run's lines continue. */
  lastMac: string
}

/**
 * Reads a report folder's journal; an InputError when there is nothing to resume, and when a line is not what
 * this run wrote: a broken seal (journal-integrity.ts) or a record that is not a valid RunRecord. `begin` then
 * checks the plan's seal and refuses a record outside the run's grid of agents × datasets × trials, on other
 * data, or contradicting itself or the dataset (more errors than it has, ratios that do not follow from the
 * counts: core/record-checks.ts).
 */
export function readRecordedRun(place: JournalPlace, keyDir = journalKeyDir(process.env)): ReadRun {
  const { plan: planPath, planName, journal: runsPath } = journalFiles(place)
  const { dir } = place
  if (!checkOwnFile(planPath)) {
    throw new InputError(`${dir}: nothing to resume: no ${planName} (the run finished, or this is not a report folder)`)
  }
  let recorded: RecordedRun
  const planText = readFileSync(planPath, 'utf8')
  checkJsonDepth(planText, (line) => `${planPath}: line ${line}`)
  try {
    recorded = JSON.parse(planText) as RecordedRun
  } catch (error) {
    throw new InputError(`${planPath}: not valid JSON (${(error as Error).message})`)
  }
  if (recorded?.journalVersion !== 2 || typeof recorded.options !== 'object') {
    throw new InputError(`${planPath}: not a recorded run of this version (start over: delete ${planName})`)
  }
  if (typeof recorded.planMac !== 'string') throw new InputError(`${planPath}: field "planMac": missing`)
  const key = readJournalKey(keyDir, recorded.journalKey, planPath)
  // Read and cut through one descriptor opened without following links: the journal is the folder's own file.
  let text = ''
  if (checkOwnFile(runsPath)) {
    const fd = openOwnFile(runsPath, 'read-write', 'cannot open the journal')
    try {
      text = readFileSync(fd, 'utf8')
      // A kill -9 in the middle of a write can leave a last line without its newline: that trial is run again.
      const end = text.lastIndexOf('\n') + 1
      if (end < text.length) {
        ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)))
        text = text.slice(0, end)
      }
    } finally {
      closeSync(fd)
    }
  }
  const { lines, last } = openSealedJournal(text, runsPath, key, recorded.planMac)
  const records = lines.map(({ json, line }) => parseRunRecordText(json, `${runsPath}: line ${line}`))
  return { place, recorded, records, lines: lines.map((l) => l.line), key, lastMac: last }
}

/** Refuses a journal record that the recorded run cannot have produced (checked once the plan is known good). */
function checkJournalRecords(read: ReadRun, runsPath: string): void {
  read.records.forEach((record, i) => {
    const problem = outsideTheRun(record, read.recorded)[0]
    if (problem) {
      throw new InputError(
        `${runsPath}: line ${read.lines[i]}: ${problem}; this run cannot have produced it (start over: delete ${journalFiles(read.place).planName})`,
      )
    }
  })
}

/** Why a journal record cannot be one of the recorded run's trials (first reason first); empty when it can. */
function outsideTheRun(r: RunRecord, recorded: RecordedRun): string[] {
  const trials = Number(recorded.options.trials ?? 1)
  const seed0 = Number(recorded.options.seed ?? 1)
  if (!recorded.agents.some((a) => a.name === r.agent))
    return [`field "agent": "${r.agent}" is not an agent of the run`]
  if (!(r.trial < trials) || r.seed !== seed0 + r.trial)
    return [
      `fields "trial", "seed": trial ${r.trial} with seed ${r.seed} is not in the run's ${trials} trials from seed ${seed0}`,
    ]
  const data =
    recorded.datasets.find((d) => d.id === r.dataset && d.seed === r.seed) ??
    recorded.datasets.find((d) => d.id === r.dataset && d.seed === null)
  if (!data) return [`field "dataset": "${r.dataset}" (seed ${r.seed}) is not a dataset of the run`]
  if (r.datasetSha256?.dirty !== data.dirty || r.datasetSha256?.clean !== data.clean)
    return ['field "datasetSha256": not the data the run loaded']
  if (r.runDateUtc !== recorded.runDateUtc)
    return [`field "runDateUtc": ${r.runDateUtc} is not the run's date ${recorded.runDateUtc}`]
  const bounds =
    typeof data.dirtyCells === 'number'
      ? { maxErrors: data.dirtyCells, what: 'cells that differ from the clean data' }
      : null
  return recordProblems(r, bounds)
}

/**
 * The flags of a resumed run: the recorded ones. A flag given again must say the same thing (paths compared
 * resolved); a different value is an InputError naming the flag, since the missing cells must be run as the
 * first ones were.
 */
export function resumeOptions(
  recorded: RecordedRun,
  given: RunOptions,
  cwd: string,
  env: Record<string, string | undefined> = {},
): RunOptions {
  const now = runEnvOf(env)
  for (const name of RUN_ENV) {
    const before = recorded.env?.[name] ?? null
    if (before !== now[name]) {
      throw new InputError(
        `run --resume: $${name} differs from the recorded run (recorded ${show(before ?? undefined)}, now ${show(now[name] ?? undefined)})`,
      )
    }
  }
  for (const [flag, value] of Object.entries(given)) {
    if (NOT_RECORDED.has(flag) || value === undefined) continue
    const before = recorded.options[flag]
    const same =
      PATH_FLAGS.has(flag) && typeof value === 'string' && typeof before === 'string'
        ? resolve(cwd, value) === resolve(recorded.cwd, before)
        : JSON.stringify(value) === JSON.stringify(before)
    if (!same) {
      throw new InputError(
        `run --resume: --${flag} differs from the recorded run (recorded ${show(before)}, given ${show(value)}); start a new run to change it`,
      )
    }
  }
  return { ...recorded.options, quiet: given.quiet }
}

function show(value: unknown): string {
  return value === undefined ? 'not set' : Array.isArray(value) ? `"${value.join(',')}"` : `"${String(value)}"`
}

function agentIdentity(agent: RepairAgent): RecordedRun['agents'][number] {
  return {
    name: agent.name,
    kind: agentKindOf(agent),
    model: agent.model ?? null,
    provider: agent.provider ?? null,
    sha256: agent.provenance?.sha256 ?? null,
  }
}

function datasetIdentity(info: DatasetInfo): RecordedRun['datasets'][number] {
  return {
    id: info.id,
    seed: info.seed ?? null,
    dirty: info.dirty.sha256,
    clean: info.clean.sha256,
    dirtyCells: info.dirtyCells,
  }
}

/** Refuses to resume when the agents or the data are not what the recorded run used. */
function checkSameRun(recorded: RecordedRun, agents: readonly RepairAgent[], datasets: readonly DatasetInfo[]): void {
  const now = agents.map(agentIdentity)
  if (now.length !== recorded.agents.length) {
    throw new InputError(
      `run --resume: the run had agents ${recorded.agents.map((a) => a.name).join(', ')}, now ${now.map((a) => a.name).join(', ')}`,
    )
  }
  now.forEach((agent, i) => {
    const before = recorded.agents[i]!
    for (const field of ['name', 'kind', 'model', 'provider', 'sha256'] as const) {
      if ((agent[field] ?? null) !== (before[field] ?? null)) {
        const what = field === 'sha256' ? 'code (sha256 of its module or script)' : field
        throw new InputError(
          `run --resume: agent ${i + 1} (${before.name}) ${what} was "${before[field]}", now "${agent[field]}"`,
        )
      }
    }
  })
  const recordedData = new Map(recorded.datasets.map((d) => [JSON.stringify([d.id, d.seed]), d]))
  for (const info of datasets.map(datasetIdentity)) {
    const before = recordedData.get(JSON.stringify([info.id, info.seed]))
    const label = `dataset ${info.id}${info.seed === null ? '' : ` (seed ${info.seed})`}`
    if (!before) throw new InputError(`run --resume: ${label} is not in the recorded run`)
    for (const role of ['dirty', 'clean'] as const) {
      if (before[role] !== info[role]) {
        throw new InputError(
          `run --resume: ${label} ${role} sha256 changed since the run started (was ${before[role]}, now ${info[role]})`,
        )
      }
    }
  }
}

/**
 * The journal of one run in a report folder: the recorded configuration and every finished trial, appended
 * and flushed at once. Resuming continues the same journal; `finish` removes it once the reports are written.
 */
export class RunJournal {
  private appender: RunsAppender | null = null
  private sealer: JournalSealer | null = null
  private key: JournalKey | null = null
  private readonly byCell = new Map<string, RunRecord>()
  /** The trials' transcripts by id, journaled beside the records (unsealed: `verify` covers the file they end in). */
  private readonly transcriptsById = new Map<string, Transcript>()
  private transcriptAppender: RunsAppender | null = null

  private readonly files: ReturnType<typeof journalFiles>

  private constructor(
    readonly place: JournalPlace,
    private readonly recorded: RecordedRun,
    private readonly resumed: ReadRun | null,
    private readonly keyDir: string,
    previous: readonly RunRecord[],
  ) {
    for (const record of previous) this.byCell.set(cellKey(record), record)
    this.files = journalFiles(place)
    if (resumed) for (const t of readJournaledTranscripts(this.files.transcripts)) this.transcriptsById.set(t.id, t)
  }

  /** `keyDir`: the state folder's run-keys (journal-integrity.ts), where the run's journal key is kept. */
  static fresh(
    place: JournalPlace,
    recorded: Omit<RecordedRun, 'journalVersion' | 'agents' | 'datasets'>,
    keyDir = journalKeyDir(process.env),
  ): RunJournal {
    const options = Object.fromEntries(
      Object.entries(recorded.options).filter(([k, v]) => !NOT_RECORDED.has(k) && v !== undefined),
    )
    return new RunJournal(
      place,
      { journalVersion: 2, ...recorded, options, agents: [], datasets: [] },
      null,
      keyDir,
      [],
    )
  }

  static resume(read: ReadRun): RunJournal {
    return new RunJournal(read.place, read.recorded, read, read.key.dir, read.records)
  }

  get runDateUtc(): string {
    return this.recorded.runDateUtc
  }

  /** Whether the journal was opened (the data loaded, the first trial about to run). */
  get begun(): boolean {
    return this.appender !== null
  }

  get saved(): number {
    return this.byCell.size
  }

  /** Called once the agents are resolved and the data loaded, before the first trial. */
  async begin(agents: readonly RepairAgent[], datasets: readonly DatasetInfo[]): Promise<void> {
    if (this.resumed) {
      checkSameRun(this.recorded, agents, datasets)
      // Checked after the agents and data (whose differences have their own messages): the rest of the plan
      // (flags, environment) must be as the run wrote it, since the missing trials run with it.
      if (planMac(this.resumed.key, this.recorded as unknown as Record<string, unknown>) !== this.recorded.planMac) {
        throw new InputError(
          `${this.files.plan}: the plan's seal does not match: it was changed after the run wrote it (start over: delete it)`,
        )
      }
      checkJournalRecords(this.resumed, this.files.journal)
      this.sealer = new JournalSealer(this.resumed.key, this.resumed.lastMac)
    } else {
      const key = createJournalKey(this.keyDir)
      const plan: RecordedRun = {
        ...this.recorded,
        agents: agents.map(agentIdentity),
        datasets: datasets.map(datasetIdentity),
        journalKey: key.id,
      }
      plan.planMac = planMac(key, plan as unknown as Record<string, unknown>)
      this.key = key
      await commitFiles(new Map([[this.files.plan, `${JSON.stringify(plan, null, 2)}\n`]]))
      this.sealer = new JournalSealer(key, plan.planMac)
    }
    this.appender = openRunsAppender(this.files.journal, { truncate: !this.resumed })
    if (!this.resumed) rmSync(this.files.transcripts, { force: true })
  }

  /** Whether a cell is already done. A rate-limited trial never reached the model: it runs again. */
  has(cell: TrialCell): boolean {
    const record = this.byCell.get(cellKey(cell))
    return record !== undefined && record.failureKind !== 'rate_limited'
  }

  /** A finished trial, with its transcript (written first: a record on disk always finds its transcript). */
  add(record: RunRecord, transcript: Transcript | null = null): void {
    if (transcript && this.appender) {
      this.transcriptAppender ??= openRunsAppender(this.files.transcripts, { truncate: false })
      this.transcriptAppender.append(`${JSON.stringify(transcript)}\n`)
    }
    if (transcript) this.transcriptsById.set(transcript.id, transcript)
    if (this.appender && this.sealer) this.appender.append(this.sealer.line(recordJson(record)))
    this.byCell.set(cellKey(record), record)
  }

  records(): RunRecord[] {
    return [...this.byCell.values()]
  }

  /** The transcripts journaled so far (a resumed run's included). */
  transcripts(): Iterable<Transcript> {
    return this.transcriptsById.values()
  }

  /** The reports are written: the journal has done its job. */
  finish(): void {
    this.appender?.close()
    this.transcriptAppender?.close()
    rmSync(this.files.transcripts, { force: true })
    rmSync(this.files.journal, { force: true })
    rmSync(this.files.plan, { force: true })
    const key = this.resumed?.key ?? this.key
    if (key) removeJournalKey(key)
  }

  close(): void {
    this.appender?.close()
    this.transcriptAppender?.close()
  }

  resumeHint(displayDir: string, total: number | null): string {
    const saved = total === null ? counted(this.saved, 'trial') : `${this.saved} of ${counted(total, 'trial')}`
    return `dataforge-evals: run interrupted: ${saved} ${this.saved === 1 ? 'is' : 'are'} saved in ${join(displayDir, this.files.journalName)}; resume with: dataforge-evals run --resume ${resumeTarget(displayDir, this.place.stem)}\n`
  }
}
