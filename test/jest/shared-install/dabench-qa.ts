import { readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeJestProject, runJest } from '../../helpers/jest-project.js'
import { reportFolder } from '../../helpers/vitest-run.js'

// qaSuite('dabench', …) under real Jest 30 (CommonJS through ts-jest), with the package installed from its
// packed tarball: the bundled slice is read from the installed package's datasets/ folder.

const EVAL = `import 'dataforge-evals/jest'
import { qaSuite } from 'dataforge-evals/jest'

qaSuite('dabench', { agent: 'mock-qa', limit: 6, seed: 3 })
qaSuite('dabench', { agent: 'refuse', name: 'dabench-refuse', limit: 6, seed: 3 })
`

/** Runs in test/jest/runs.test.ts, on its install of the packed package and Jest (`work`). */
export function describeDabenchUnderJest(workDir: () => string): void {
  beforeAll(async () => {
    const project = join(workDir(), 'dabench')
    await makeJestProject(project, 'cjs')
    for (const name of await readdir(join(project, 'evals'))) await rm(join(project, 'evals', name))
    await writeFile(join(project, 'evals', 'dabench.eval.ts'), EVAL)
  }, 300_000)

  describe("qaSuite('dabench') under Jest", () => {
    it('the oracle passes every sampled question, the refusing agent none; the report has the DABench metrics', async () => {
      const work = workDir()
      const project = join(work, 'dabench')
      const jest = await runJest(work, project, [])
      // The refusing agent's tests fail, so Jest exits 1.
      expect(jest.code, jest.output).toBe(1)
      const folder = reportFolder(join(project, 'evals/__reports__'))
      const runs = folder.runs()
      expect(runs.filter((r) => r.suite === 'dabench').map((r) => r.correct)).toEqual(Array(6).fill(true))
      expect(runs.filter((r) => r.suite === 'dabench-refuse').map((r) => r.correct)).toEqual(Array(6).fill(false))
      expect(runs.every((r) => /^dabench-\d+$/.test(r.caseId) && r.metrics['dabench.subAnswers']! >= 1)).toBe(true)
      const summaries = folder.report().dabench!
      expect(
        summaries.map((s) => [
          s.agent,
          s.overall.questions,
          s.overall.abq.point,
          s.overall.psaq.point,
          s.overall.uasq.point,
        ]),
      ).toEqual([
        ['mock-qa', 6, 1, 1, 1],
        ['refuse', 6, 0, 0, 0],
      ])
      expect(folder.text('leaderboard.md')).toContain('### DABench')
    }, 120_000)
  })
}
