import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { Reporter, TestModule } from 'vitest/node'
import { createVitest, startVitest, type Vitest } from 'vitest/node'
import type { RunRecord } from '../../src/core/run-record.js'
import type { EvalReport } from '../../src/report-builder/build.js'
import DataforgeReporter, { type DataforgeReporterOptions } from '../../src/reporter/vitest/index.js'
import type { DataforgeMeta } from '../../src/vitest/meta.js'
import { parseRuns } from './runs.js'

/** Helpers that drive real Vitest runs over the fixture eval projects in this folder. */

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
export const fixturesDir = fileURLToPath(new URL('../fixtures/vitest/', import.meta.url))
/** The sources' setup file (not the package name, which resolves to dist/ and a second label wall). */
export const setupFile = resolve(repoRoot, 'src/vitest/setup.ts')

export interface CapturedTest {
  name: string
  fullName: string
  file: string
  state: string
  errors: string[]
  meta: DataforgeMeta | undefined
  annotations: Array<{ type: string; message: string }>
}

/** Keeps what Vitest knew about every test of the last run: names, states, errors, meta, annotations. */
export class CaptureReporter implements Reporter {
  tests: CapturedTest[] = []

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    this.tests = []
    for (const module of modules) {
      for (const t of module.children.allTests()) {
        const result = t.result()
        this.tests.push({
          name: t.name,
          fullName: t.fullName,
          file: module.moduleId,
          state: result.state,
          errors: (result.errors ?? []).map((e) => e.message ?? ''),
          meta: t.meta().dataforge,
          annotations: t.annotations().map((a) => ({ type: a.type, message: a.message })),
        })
      }
    }
  }

  byName(name: string): CapturedTest {
    const found = this.tests.find((t) => t.name === name)
    if (!found) throw new Error(`no test named "${name}"; have: ${this.tests.map((t) => t.name).join(', ')}`)
    return found
  }
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/** A stream that keeps what Vitest's logger writes. */
export function captureStream(): { stream: Writable; text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  // Vitest pipes each worker's stdout into the logger's stream with `end: true`: the first worker to exit
  // would end a custom stream (process.stdout ignores end()), so this one ignores it too.
  stream.end = (() => stream) as Writable['end']
  return { stream, text: () => stripAnsi(chunks.join('')) }
}

export interface ReportFolder {
  dir: string
  has(name: string): boolean
  text(name: string): string
  report(): EvalReport
  runs(): RunRecord[]
}

export function reportFolder(dir: string): ReportFolder {
  const text = (name: string) => readFileSync(join(dir, name), 'utf8')
  return {
    dir,
    has: (name) => existsSync(join(dir, name)),
    text,
    report: () => JSON.parse(text('report.json')) as EvalReport,
    runs: () => parseRuns(text('runs.jsonl')),
  }
}

/** Temp folders made by one test file, removed in its afterAll. */
export class TempDirs {
  private readonly dirs: string[] = []

  make(prefix = 'dataforge-vitest-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    this.dirs.push(dir)
    return dir
  }

  removeAll(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  }
}

export interface FixtureRunOptions {
  /** Folder under test/fixtures/vitest. */
  fixture: string
  /** Where the reports go (a fresh temp folder). */
  outputDir: string
  /** Vite's cache folder, kept out of the repository. */
  cacheDir: string
  /** CLI-style file filters, relative to the fixture. */
  files?: string[]
  reporterOptions?: Omit<DataforgeReporterOptions, 'outputDir'>
  /** Vitest reporters to run beside the capture and dataforge reporters. */
  extraReporters?: Array<string | [string, Record<string, unknown>]>
  testNamePattern?: string
  /** Environment of the fixture's test workers. */
  env?: Record<string, string>
  /** Sets DATAFORGE_UPDATE_BASELINE=1 in this (the reporter's) process for the run. */
  updateBaseline?: boolean
  allowOnly?: boolean
  /** Run with Vitest's default pool (forks, one isolated module graph per file). Default false. */
  isolate?: boolean
}

export interface FixtureRun {
  /** `process.exitCode` as Vitest and the reporter left it (undefined or 0 = success). */
  exitCode: number | undefined
  /** Everything Vitest's logger printed, without colours. */
  output: string
  tests: CaptureReporter
  reports: ReportFolder
}

function inlineConfig(
  opts: FixtureRunOptions,
  reporters: Array<Reporter | string | [string, Record<string, unknown>]>,
  watch: boolean,
) {
  return {
    root: resolve(fixturesDir, opts.fixture),
    config: false as const,
    watch,
    include: ['**/*.eval.ts'],
    // Vitest's defaults (forked, isolated files) where asked; otherwise files share worker threads and
    // modules, which halves the time of a run and changes nothing the reporter sees.
    ...(opts.isolate ? {} : { pool: 'threads' as const, isolate: false }),
    setupFiles: [setupFile],
    reporters,
    env: opts.env ?? {},
    // Set explicitly: Vitest refuses `.only` under CI unless allowed.
    allowOnly: opts.allowOnly ?? false,
    ...(opts.testNamePattern ? { testNamePattern: opts.testNamePattern } : {}),
  }
}

/** Runs a fixture project once (`vitest run`) in this process with the dataforge reporter. */
export async function runFixture(opts: FixtureRunOptions): Promise<FixtureRun> {
  const capture = new CaptureReporter()
  const logs = captureStream()
  const reporters = [
    ...(opts.extraReporters ?? []),
    capture,
    new DataforgeReporter({ github: false, ...opts.reporterOptions, outputDir: opts.outputDir }),
  ]
  const savedExitCode = process.exitCode
  const savedUpdate = process.env.DATAFORGE_UPDATE_BASELINE
  process.exitCode = undefined
  if (opts.updateBaseline) process.env.DATAFORGE_UPDATE_BASELINE = '1'
  else delete process.env.DATAFORGE_UPDATE_BASELINE
  let exitCode: number | undefined
  try {
    await startVitest(
      'test',
      opts.files ?? [],
      inlineConfig(opts, reporters, false),
      { cacheDir: opts.cacheDir },
      { stdout: logs.stream, stderr: logs.stream },
    )
    exitCode = typeof process.exitCode === 'number' ? process.exitCode : undefined
  } finally {
    process.exitCode = savedExitCode
    if (savedUpdate === undefined) delete process.env.DATAFORGE_UPDATE_BASELINE
    else process.env.DATAFORGE_UPDATE_BASELINE = savedUpdate
  }
  return { exitCode, output: logs.text(), tests: capture, reports: reportFolder(opts.outputDir) }
}

export interface WatchSession {
  vitest: Vitest
  /** Reruns these files as watch mode does after a change (the public `rerunTestSpecifications`). */
  rerun(files: string[]): Promise<void>
  tests: CaptureReporter
  reports: ReportFolder
  /** Output printed since the last call. */
  takeOutput(): string
  close(): Promise<void>
}

/** Starts a fixture in watch mode (`createVitest` + `start()`); `rerun(files)` then reruns files. */
export async function watchFixture(opts: FixtureRunOptions): Promise<WatchSession> {
  const capture = new CaptureReporter()
  const logs = captureStream()
  const reporters = [
    capture,
    new DataforgeReporter({ github: false, ...opts.reporterOptions, outputDir: opts.outputDir }),
  ]
  const savedExitCode = process.exitCode
  const vitest = await createVitest(
    'test',
    inlineConfig(opts, reporters, true),
    { cacheDir: opts.cacheDir },
    { stdout: logs.stream, stderr: logs.stream },
  )
  let seen = 0
  await vitest.start(opts.files ?? [])
  return {
    vitest,
    async rerun(files) {
      await vitest.rerunTestSpecifications(files.flatMap((file) => vitest.getModuleSpecifications(file)))
    },
    tests: capture,
    reports: reportFolder(opts.outputDir),
    takeOutput() {
      const all = logs.text()
      const fresh = all.slice(seen)
      seen = all.length
      return fresh
    },
    async close() {
      await vitest.close()
      process.exitCode = savedExitCode
    },
  }
}
