import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createVitest } from 'vitest/node'
import DataforgeReporter from '../../src/reporter/vitest/index.js'
import {
  captureStream,
  CaptureReporter,
  fixturesDir,
  reportFolder,
  setupFile,
  TempDirs,
} from '../helpers/vitest-run.js'

// `vitest --ui`: the UI server (from @vitest/ui) and our reporter side by side in one watch-mode Vitest.
const temp = new TempDirs()
afterAll(() => temp.removeAll())

describe('with vitest --ui', () => {
  it('serves the UI while the eval reporter writes its reports', async () => {
    const outputDir = temp.make()
    const logs = captureStream()
    const capture = new CaptureReporter()
    const savedExitCode = process.exitCode
    const vitest = await createVitest(
      'test',
      {
        root: join(fixturesDir, 'gates'),
        config: false,
        watch: true,
        ui: true,
        open: false,
        api: { host: '127.0.0.1', port: 0, strictPort: false },
        include: ['**/*.eval.ts'],
        setupFiles: [setupFile],
        reporters: [capture, new DataforgeReporter({ outputDir })],
      },
      { cacheDir: temp.make() },
      { stdout: logs.stream, stderr: logs.stream },
    )
    try {
      await vitest.start(['evals/'])
      expect(capture.tests.map((t) => t.state)).toEqual(['passed', 'passed', 'passed', 'passed'])
      // Under --ui every verdict is annotated, passing ones too, so the UI shows each case's summary.
      for (const t of capture.tests)
        expect(t.annotations).toEqual([{ type: 'dataforge', message: t.meta!.matchers[0]!.summary }])
      const report = reportFolder(outputDir).report()
      expect(report.records).toHaveLength(4)
      expect(report.aggregates.map((a) => a.group)).toEqual(['mock · synthetic', 'noop · synthetic'])
      const address = vitest.vite.httpServer?.address()
      expect(address && typeof address === 'object').toBe(true)
      const port = (address as { port: number }).port
      const page = await fetch(`http://127.0.0.1:${port}/__vitest__/`)
      expect(page.status).toBe(200)
      expect(await page.text()).toMatch(/<html/i)
      expect(logs.text()).toContain('dataforge-evals leaderboard')
    } finally {
      await vitest.close()
      process.exitCode = savedExitCode
    }
  })
})
