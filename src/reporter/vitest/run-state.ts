import { relative, sep } from 'node:path'
import type { TestCase, TestModule } from 'vitest/node'
import type { DatasetInfo } from '../../core/dataset-info.js'
import type { RunRecord } from '../../core/run-record.js'
import type { Transcript } from '../../core/transcript.js'
import { groupName } from '../../report-builder/aggregate.js'
import type { EvalReport } from '../../report-builder/build.js'
import type { RecordProvenance } from '../../core/build-run-record.js'
import { isExactDataforgeMeta } from '../../test-meta/check.js'
import { recordFromTest } from '../../test-meta/to-run-record.js'
import type { DataforgeMeta } from '../../test-meta/build.js'

/**
 * What the reporter knows across runs: records by test id (kept across watch reruns, so groups that were not
 * rerun stay in the files), the datasets they used, and the previous report for watch-mode deltas.
 */
export class EvalRunState {
  private readonly records = new Map<string, { record: RunRecord; moduleId: string; line?: number }>()
  private readonly datasets = new Map<string, DatasetInfo>()
  /** Each test's transcript (the one its record names), by test id. */
  private readonly transcripts = new Map<string, Transcript>()
  /** Records built as results arrived in this run (`prepare`), by test id, until the run's end collects them. */
  private readonly prepared = new Map<
    string,
    { testCase: TestCase; state: string; meta: DataforgeMeta; record: RunRecord; provenance: RecordProvenance }
  >()
  /** This run's commit and date, once its commit is known; until then results wait for the run's end. */
  private provenance: RecordProvenance | null = null
  previous: EvalReport | null = null

  /** A run starts: records prepared for a run that never reached its end (no eval file ran) are dropped. */
  startRun(): void {
    this.prepared.clear()
    this.provenance = null
  }

  /** The run's provenance is known (its commit is looked up while the tests run): records are built with it. */
  knowProvenance(provenance: RecordProvenance): void {
    this.provenance = provenance
  }

  /**
   * Builds a finished test's record as its result arrives, while the other tests still run, so the end of the
   * run (on the critical path) has it already, built once with the run's commit and date. Results that arrive
   * before the commit is known, skipped tests, and metas that need zod's parse (to strip, fill in or report an
   * error) are left to the end.
   */
  prepare(testCase: TestCase): void {
    if (!this.provenance) return
    const meta = testCase.meta().dataforge
    const state = testCase.result().state
    if (!isExactDataforgeMeta(meta) || state === 'skipped' || state === 'pending') return
    const provenance = this.provenance
    this.prepared.set(testCase.id, { testCase, state, meta, record: recordOf(testCase, meta, provenance), provenance })
  }

  /**
   * Collects the modules of one run (`provenance`: the one `knowProvenance` gave, if it was given); returns the
   * groups that executed in it. Tests that no longer exist in a rerun module are dropped.
   */
  async collect(modules: readonly TestModule[], provenance: RecordProvenance): Promise<Set<string>> {
    const touched = new Set<string>()
    for (const module of modules) {
      const present = new Set<string>()
      for (const testCase of module.children.allTests()) {
        present.add(testCase.id)
        const record = await this.collectTest(testCase, module.moduleId, provenance)
        if (record && record.status !== 'skipped') touched.add(groupName(record))
      }
      for (const [id, entry] of this.records) {
        if (entry.moduleId === module.moduleId && !present.has(id)) {
          this.records.delete(id)
          this.transcripts.delete(id)
        }
      }
    }
    this.prepared.clear()
    return touched
  }

  /** group → the eval file (relative to root) of its first test, and that test's line when Vitest tracks locations. */
  sources(root: string): Map<string, { file: string; line?: number }> {
    const out = new Map<string, { file: string; line?: number }>()
    for (const { record, moduleId, line } of this.records.values()) {
      const group = groupName(record)
      if (out.has(group)) continue
      const file = relative(root, moduleId).split(sep).join('/')
      out.set(group, line === undefined ? { file } : { file, line })
    }
    return out
  }

  allRecords(): RunRecord[] {
    return [...this.records.values()].map((e) => e.record)
  }

  allTranscripts(): Transcript[] {
    return [...this.transcripts.values()]
  }

  allDatasets(): DatasetInfo[] {
    return [...this.datasets.values()]
  }

  private async collectTest(
    testCase: TestCase,
    moduleId: string,
    provenance: RecordProvenance,
  ): Promise<RunRecord | null> {
    const early = this.prepared.get(testCase.id)
    if (
      early &&
      early.testCase === testCase &&
      early.state === testCase.result().state &&
      early.provenance === provenance
    ) {
      // Built while the tests ran, with this run's provenance.
      return this.keep(testCase, moduleId, early.record, early.meta)
    }
    const raw = testCase.meta().dataforge
    if (!raw) return null
    const meta = isExactDataforgeMeta(raw) ? raw : (await parser())(raw, testCase.fullName)
    const result = testCase.result()
    // In watch mode a test filtered out of this rerun keeps its last real result.
    const kept = this.records.get(testCase.id)?.record
    if (result.state === 'skipped' && kept && kept.status !== 'skipped') return null
    return this.keep(testCase, moduleId, recordOf(testCase, meta, provenance), meta)
  }

  private keep(testCase: TestCase, moduleId: string, record: RunRecord, meta: DataforgeMeta): RunRecord {
    const line = testCase.location?.line
    this.records.set(testCase.id, line === undefined ? { record, moduleId } : { record, moduleId, line })
    const transcript = meta.llm?.transcript
    if (transcript) this.transcripts.set(testCase.id, transcript)
    else this.transcripts.delete(testCase.id)
    if (meta.datasetInfo)
      this.datasets.set(`${meta.datasetInfo.id}\u0000${meta.datasetInfo.seed ?? ''}`, meta.datasetInfo)
    return record
  }
}

/** zod's parse of a meta, loaded the first time a meta is not exactly what the schema returns unchanged. */
function parser(): Promise<typeof import('../../test-meta/schema.js').parseDataforgeMeta> {
  return import('../../test-meta/schema.js').then((m) => m.parseDataforgeMeta)
}

function recordOf(testCase: TestCase, meta: DataforgeMeta, provenance: RecordProvenance): RunRecord {
  const result = testCase.result()
  return recordFromTest(
    {
      fullName: testCase.fullName,
      state: result.state,
      errors: result.errors ?? [],
      durationMs: testCase.diagnostic()?.duration ?? 0,
      meta,
      expectedToFail: testCase.options.fails === true,
    },
    provenance,
  )
}
