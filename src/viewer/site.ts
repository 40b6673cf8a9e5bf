import { type Baseline, type Change, changes, loadBaseline, pairRuns } from './against.js'
import { runKind } from './cells.js'
import { ExpectedValues } from './expected.js'
import { indexPageHtml } from './index-page.js'
import { loadReport } from './load.js'
import { runPageHtml, type ViewContext } from './run-page.js'
import { lastAnswerText } from './transcript-view.js'

export interface SiteOptions {
  /** The report: a folder (its newest report), a runs file, a report's .md/.html/.json, or a stem. */
  path: string
  /** `--against`: a report folder or file, or a baseline.json; with how the user wrote it. */
  against?: { path: string; shown: string }
  /** `--show-expected`: served pages show clean cells and expected answers from the datasets at hand. */
  showExpected?: boolean
  dataDir?: string
}

/** The pages of one report, built from disk by `load()` and rendered on request (served) or all at once (export). */
export class ViewerSite {
  private ctx: ViewContext | null = null
  private changed: Change[] | null = null
  /** The index of the report as last read: built once per load, as every request would build it the same. */
  private index: string | null = null
  private readonly expected: ExpectedValues | null

  constructor(
    private readonly options: SiteOptions,
    private readonly mode: 'served' | 'export',
  ) {
    // Expected values are for the served pages only: an exported site is a set of files.
    this.expected = options.showExpected && mode === 'served' ? new ExpectedValues(options.dataDir) : null
  }

  /** (Re)reads the report and the baseline; throws an InputError naming the file, line and field. */
  async load(): Promise<void> {
    const report = await loadReport(this.options.path)
    let baseline: Baseline | null = null
    if (this.options.against) baseline = await loadBaseline(this.options.against.path, this.options.against.shown)
    const pairs = baseline ? pairRuns(report.records, baseline) : null
    const ctx: ViewContext = {
      report,
      mode: this.mode,
      against: baseline && pairs ? { source: baseline.source, pairs } : null,
    }
    const answerOf = (n: number) => {
      const id = report.records[n]!.transcriptId
      return lastAnswerText(id ? (report.transcripts.get(id) ?? null) : null)
    }
    this.changed = pairs ? changes(report.records, pairs, answerOf) : null
    this.ctx = ctx
    this.index = null
  }

  get report() {
    if (!this.ctx) throw new Error('ViewerSite.load() first')
    return this.ctx.report
  }

  runCount(): number {
    return this.report.records.length
  }

  indexHtml(): string {
    this.index ??= indexPageHtml(this.ctx!, this.changed)
    return this.index
  }

  async runHtml(n: number): Promise<string> {
    const record = this.report.records[n]!
    const expected = this.expected ? await this.expected.of(record, runKind(record)) : null
    return runPageHtml(this.ctx!, n, expected)
  }
}
