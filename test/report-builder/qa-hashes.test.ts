import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/core/hash.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 26 item 13: a question run's dataset sha256s reach report.json, the Markdown reproducibility table and
// report.html, and the three agree (and agree with the records').

describe('question runs in the reproducibility block', () => {
  it("report.json, report.md and report.html list the same digests, the records' own", async () => {
    await withTempDir(async (dir) => {
      const r = await runCli(
        [
          'qa',
          '--agent',
          'mock-qa',
          '--suite',
          'bespoke',
          '--quiet',
          '--output',
          'reports/report.md',
          '--output-json',
          'reports/report.json',
          '--output-html',
          'reports/report.html',
        ],
        dir,
      )
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const report = JSON.parse(await readFile(join(dir, 'reports', 'report.json'), 'utf8'))
      const records = report.records as RunRecord[]
      const digests = [...new Set(records.map((x) => x.datasetSha256!.dirty))].sort()
      expect(digests.length).toBeGreaterThan(0)
      const datasets = report.reproducibility.datasets
      expect(datasets).toHaveLength(1)
      const d = datasets[0]
      expect(d).toMatchObject({ id: records[0]!.dataset, origin: 'questions', rows: null, columns: null })
      const expected = digests.length === 1 ? digests[0]! : sha256Hex(digests.join('\n'))
      expect(d.dirty.sha256).toBe(expected)
      expect(d.clean.sha256).toBe(expected)
      expect(d.dirty.of).toBe(digests.length === 1 ? 'tables-json' : 'digest-list')
      if (digests.length > 1) expect(d.digests).toBe(digests.length)
      const md = await readFile(join(dir, 'reports', 'report.md'), 'utf8')
      const mdRepro = md.split('## Reproducibility')[1]!
      expect(mdRepro).toContain(`| ${d.id} | questions |`)
      expect(mdRepro).toContain(`\`${expected}\``)
      const html = await readFile(join(dir, 'reports', 'report.html'), 'utf8')
      expect(html).toContain(`<code>${expected}</code>`)
      // The HTML of the records alone (runs.jsonl, no report.json beside it) gives the same digest.
      const again = await runCli(['report', 'reports/report.json', '--html', 'again.html'], dir)
      expect(again.code).toBe(0)
      expect(await readFile(join(dir, 'again.html'), 'utf8')).toContain(`<code>${expected}</code>`)
    })
  })
})
