import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/core/hash.js'
import { MAX_VALUE_CHARS } from '../../../src/core/value-cap.js'
import { type JestRun, makeJestProject, runJest } from '../../helpers/jest-project.js'
import { repoRoot, reportFolder } from '../../helpers/vitest-run.js'

// Issue 26 through the Jest door (the packed package, real Jest): agents answering with two fixes of 20 M
// characters per trial. The matchers cut them on the test before the worker writes its side file.

const N = 20_000_000
const fullSha = sha256Hex('x'.repeat(N))
const note = (i: number) =>
  `value cut: fixes[${i}].newValue has ${N} characters (sha256 ${fullSha}); the record keeps the first ${MAX_VALUE_CHARS}`

const HUGE_EVAL = `import { expect } from '@jest/globals'
import { evalCase } from 'dataforge-evals/jest'

const dataset = { id: 'synthetic', rows: 20 }
const timeout = 300_000
const hugeObject = {
  name: 'huge-object',
  run: (task: { columns: string[] }) => [0, 1].map((row) => ({ row, column: task.columns[1]!, newValue: 'x'.repeat(${N}) })),
}

evalCase('huge object agent', { dataset, agent: hugeObject, trials: 2, seed: 1, timeout }, async ({ task, agent }) => {
  expect(await agent.run()).toRepairCells(task, { minF1: 0 })
})

evalCase('huge module agent', { dataset, agent: './agents/huge-fixes.ts', trials: 1, seed: 1, timeout }, async ({ task, agent }) => {
  expect(await agent.run()).toRepairCells(task, { minF1: 0 })
})

evalCase('huge object agent held to F1 1', { dataset, agent: hugeObject, trials: 1, seed: 1, timeout }, async ({ task, agent }) => {
  expect(await agent.run()).toRepairCells(task)
})
`

/** Runs in test/jest/runs.test.ts, on its install of the packed package and Jest (`work`). */
export function describeHugeValues(workDir: () => string): void {
  let project: string
  let jest: JestRun

  beforeAll(async () => {
    const work = workDir()
    project = join(work, 'huge')
    await makeJestProject(project, 'cjs')
    for (const name of await readdir(join(project, 'evals'))) await rm(join(project, 'evals', name))
    await writeFile(join(project, 'evals', 'huge.eval.ts'), HUGE_EVAL)
    await mkdir(join(project, 'agents'), { recursive: true })
    await copyFile(join(repoRoot, 'test/fixtures/agents/huge-fixes.ts'), join(project, 'agents', 'huge-fixes.ts'))
    jest = await runJest(work, project, [])
  }, 600_000)

  describe('huge agent values in a Jest run', () => {
    it('the run ends with its reports written, small, every record cut and noted, the leaderboard saying so', async () => {
      expect(jest.code, jest.output).toBe(1) // the F1 = 1 case fails, as it should
      expect(jest.output).not.toMatch(/RangeError|Invalid string length/)
      expect(jest.output).toContain(`… (${N} characters)`)
      expect(jest.output.length).toBeLessThan(200_000)
      const dir = join(project, 'evals/__reports__')
      const files = (await readdir(dir)).sort()
      expect(files).toEqual(expect.arrayContaining(['leaderboard.md', 'manifest.json', 'report.json', 'runs.jsonl']))
      let bytes = 0
      for (const name of files) bytes += (await stat(join(dir, name))).size
      expect(bytes).toBeLessThan(2 * 1024 * 1024)
      const runs = reportFolder(dir).runs()
      expect(runs).toHaveLength(4)
      for (const r of runs) {
        expect(r.fixes!.map((f) => f.newValue.length)).toEqual([MAX_VALUE_CHARS, MAX_VALUE_CHARS])
        expect(r.warnings).toEqual(expect.arrayContaining([note(0), note(1)]))
      }
      expect(reportFolder(dir).text('leaderboard.md')).toMatch(
        /## Values cut\n\n> \d+ values in 4 runs were cut to their first 10000 characters/,
      )
    })
  })
}
