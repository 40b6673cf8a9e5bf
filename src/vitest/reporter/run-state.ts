import type { TestCase, TestModule } from 'vitest/node'
import type { DatasetInfo } from '../../core/dataset-info.js'
import type { RunRecord } from '../../core/run-record.js'
import { groupName } from '../../report/aggregate.js'
import type { EvalReport } from '../../report/build.js'
import type { RecordProvenance } from '../../core/build-run-record.js'
import { parseDataforgeMeta } from '../../core/test-meta.js'
import { recordFromTest } from '../../cases/record-from-meta.js'

/**
 * What the reporter knows across runs: records by test id (kept across watch reruns, so groups that were not
 * rerun stay in the files), the datasets they used, and the previous report for watch-mode deltas.
 */
export class EvalRunState {
  private readonly records = new Map<string, { record: RunRecord; moduleId: string }>()
  private readonly datasets = new Map<string, DatasetInfo>()
  previous: EvalReport | null = null

  /**
   * Collects the modules of one run; returns the groups that executed in it. Tests that no longer exist in a
   * rerun module are dropped.
   */
  collect(modules: readonly TestModule[], provenance: RecordProvenance): Set<string> {
    const touched = new Set<string>()
    for (const module of modules) {
      const present = new Set<string>()
      for (const testCase of module.children.allTests()) {
        present.add(testCase.id)
        const record = this.collectTest(testCase, module.moduleId, provenance)
        if (record && record.status !== 'skipped') touched.add(groupName(record))
      }
      for (const [id, entry] of this.records) if (entry.moduleId === module.moduleId && !present.has(id)) this.records.delete(id)
    }
    return touched
  }

  allRecords(): RunRecord[] {
    return [...this.records.values()].map((e) => e.record)
  }

  allDatasets(): DatasetInfo[] {
    return [...this.datasets.values()]
  }

  private collectTest(testCase: TestCase, moduleId: string, provenance: RecordProvenance): RunRecord | null {
    const raw = testCase.meta().dataforge
    if (!raw) return null
    const meta = parseDataforgeMeta(raw, testCase.fullName)
    const result = testCase.result()
    // In watch mode a test filtered out of this rerun keeps its last real result.
    const kept = this.records.get(testCase.id)?.record
    if (result.state === 'skipped' && kept && kept.status !== 'skipped') return null
    const record = recordFromTest(
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
    this.records.set(testCase.id, { record, moduleId })
    if (meta.datasetInfo) this.datasets.set(`${meta.datasetInfo.id}\u0000${meta.datasetInfo.seed ?? ''}`, meta.datasetInfo)
    return record
  }
}
