import pc from 'picocolors'
import { relative } from 'node:path'
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import type { projectCommitAsync } from '../../report-builder/reproducibility.js'
import type { RecordProvenance } from '../../core/build-run-record.js'
import { provideAnnotateMode, verdictPrinter } from './case-summaries.js'
import { type DataforgeReporterOptions, EvalReporterBase, type ReportFormat } from '../reporter-base.js'
import type { EvalRunState } from './run-state.js'
import { terminalOutput } from '../../core/escape-text.js'
import { brokenFilesNote } from '../broken-files-note.js'
import { refuseInspectorSignal } from '../../isolation/harness-signals.js'

export type { DataforgeReporterOptions, ReportFormat }
// The config that imports the reporter brings the matchers' types to every file of its TypeScript project:
// `setupFiles` names the setup entry by a string, which carries no types.
export type { DataforgeAssertion, VitestAssertion } from '../../vitest/augment.js'

/**
 * The Vitest eval reporter: gathers what the tests recorded into a run state and ends the run through the
 * shared report path (report builder, gates, pure renderers; baseline, report folder, printing, exit code).
 */
export default class DataforgeReporter extends EvalReporterBase implements Reporter {
  private vitest: Vitest | undefined
  /** Created while the first run's tests run, when its module loads. */
  private state: EvalRunState | null = null
  private printVerdicts: ((testCase: TestCase) => void) | null = null
  /** The project's commit, looked up while the tests run (git is a child process). */
  private pendingCommit: ReturnType<typeof projectCommitAsync> | null = null
  /** When this run started: its records' `runDateUtc`. */
  private runDateUtc: string | null = null
  /** This run's commit and date, every record built with it; made once per run. */
  private runProvenance: Promise<{
    project: Awaited<ReturnType<typeof projectCommitAsync>>
    provenance: RecordProvenance
  }> | null = null

  onInit(vitest: Vitest): void {
    // Under the threads pool an isolated agent's parent is this process (docs/isolation.md).
    refuseInspectorSignal()
    this.vitest = vitest
    this.printVerdicts = verdictPrinter(vitest, provideAnnotateMode(vitest), pc.isColorSupported)
  }

  /** Set at a run's start; the run end's modules and the git lookup start once its first module is collected. */
  private preloadPending = false

  onTestRunStart(): void {
    this.state?.startRun()
    this.collectedGroup = null
    this.preloadPending = true
    this.runDateUtc = new Date().toISOString()
    this.runProvenance = null
  }

  /**
   * The config loads this reporter before any worker starts, so its static graph is kept small. What the run's
   * end needs (run state, report builder, renderers, git) loads once the first test module is collected: the
   * workers then run tests and need nothing from this process. Loaded at the run's start, it took the main
   * thread while Vitest started the workers and served them their modules, which delayed the first test.
   */
  onTestModuleCollected(module: TestModule): void {
    if (this.isEvalFile(module.moduleId)) this.noteGroups(module)
    if (!this.preloadPending) return
    this.preloadPending = false
    void this.preloadRunEnd()
    this.pendingCommit = this.lookUpCommit()
    const provenance = this.provenance()
    // Once the commit is known, each result's record is built as it arrives.
    void Promise.all([this.runState(), provenance]).then(([state, known]) => {
      if (this.runProvenance === provenance) state.knowProvenance(known.provenance)
    })
    this.projectEvalFiles = this.globEvalFiles()
  }

  /** The group of this run's first collected eval test, as its meta names it (`noteGroups`). */
  private collectedGroup: readonly unknown[] | null = null

  /**
   * Two groups among the collected tests (as their metas name them before they run: agent, model, suite, dataset,
   * category) mean a Score chart on the HTML page, so the charts' renderer starts loading.
   */
  private noteGroups(module: TestModule): void {
    for (const testCase of module.children.allTests()) {
      const meta = testCase.meta().dataforge as Partial<Record<string, unknown>> | undefined
      if (!meta || typeof meta !== 'object') continue
      const group = [meta.agent, meta.model, meta.suite, meta.dataset, meta.category]
      this.collectedGroup ??= group
      if (group.some((part, i) => part !== this.collectedGroup![i])) {
        this.preloadCharts()
        return
      }
    }
  }

  /** The run's commit (looked up once) and the date it started. */
  private provenance(): NonNullable<typeof this.runProvenance> {
    this.runDateUtc ??= new Date().toISOString()
    const runDateUtc = this.runDateUtc
    this.runProvenance ??= (this.pendingCommit ?? this.lookUpCommit()).then((project) => ({
      project,
      provenance: { projectCommit: project.commit, runDateUtc },
    }))
    return this.runProvenance
  }

  /** The project's eval files, globbed while the tests run (for `wasFiltered`); null when the glob fails. */
  private projectEvalFiles: Promise<string[] | null> | null = null

  private globEvalFiles(): Promise<string[] | null> {
    if (!this.vitest) return Promise.resolve(null)
    return this.vitest.globTestSpecifications().then(
      (specs) => specs.map((s) => s.moduleId).filter((id) => this.isEvalFile(id)),
      () => null,
    )
  }

  private lookUpCommit(): ReturnType<typeof projectCommitAsync> {
    return import('../../report-builder/reproducibility.js').then(({ projectCommitAsync }) =>
      projectCommitAsync(this.root),
    )
  }

  private runStateModule: Promise<typeof import('./run-state.js')> | null = null

  private async runState(): Promise<EvalRunState> {
    this.runStateModule ??= import('./run-state.js')
    const { EvalRunState } = await this.runStateModule
    this.state ??= new EvalRunState()
    return this.state
  }

  /**
   * Under `--reporter=verbose`: the summaries of the verdicts that held, under their test (they are not
   * annotated). And the test's record is built now, while the worker runs the next tests, not at the run's end.
   */
  onTestCaseResult(testCase: TestCase): void {
    this.printVerdicts?.(testCase)
    if (this.isEvalFile(testCase.module.moduleId)) this.state?.prepare(testCase)
  }

  protected override get root(): string {
    return this.vitest?.config.root ?? process.cwd()
  }

  protected override get watching(): boolean {
    return Boolean(this.vitest?.config.watch)
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const evalModules = testModules.filter((m) => this.isEvalFile(m.moduleId))
    if (evalModules.length === 0) return
    const broken = evalModules.filter((m) => m.errors().length > 0)
    if (broken.length)
      this.print(
        brokenFilesNote(
          broken.map((m) => ({ path: relative(this.root, m.moduleId), message: m.errors()[0]?.message ?? '' })),
        ),
      )
    const filtered = this.wasFiltered(evalModules)
    const { project, provenance } = await this.provenance()
    this.pendingCommit = null
    this.runProvenance = null
    this.runDateUtc = null
    this.preloadPending = false
    const state = await this.runState()
    const touched = await state.collect(evalModules, provenance)
    await this.finishRun({
      records: state.allRecords(),
      datasets: state.allDatasets(),
      runDateUtc: provenance.runDateUtc,
      project,
      touched,
      // A file that failed outside its tests leaves the run incomplete, as a filter does.
      filtered: (await filtered) || broken.length > 0,
      command: 'vitest',
      sources: state.sources(this.root),
      transcripts: state.allTranscripts(),
    })
  }

  /** Whether some eval of the project did not run: a name filter, or eval files left out by a file filter. */
  private async wasFiltered(ran: readonly TestModule[]): Promise<boolean> {
    const globbed = this.projectEvalFiles
    this.projectEvalFiles = null
    if (!this.vitest) return false
    if (this.vitest.config.testNamePattern) return true
    const all = await (globbed ?? this.globEvalFiles())
    if (!all) return false
    const done = new Set(ran.map((m) => m.moduleId))
    return all.some((id) => !done.has(id))
  }

  protected override print(text: string): void {
    if (!text) return
    if (this.vitest) this.vitest.logger.log(terminalOutput(text))
    else process.stdout.write(`${terminalOutput(text)}\n`)
  }
}

export { DataforgeReporter }
