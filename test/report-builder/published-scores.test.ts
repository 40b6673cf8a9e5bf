import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { baselineAgent } from '../../src/adapters/baseline/index.js'
import type { AgentRunResult } from '../../src/core/schemas.js'
import { loadDataset } from '../../src/datasets/index.js'
import { gradeRepair } from '../../src/grading/index.js'
import { formatNumber } from '../../src/stats/number-format.js'
import { mean } from '../../src/stats/quantile.js'

// The agents page (docs/agents.md) publishes what `baseline` reaches with one trial (exact comparator). These are pinned to three
// decimals, and that table is read back so the published numbers and the code cannot drift apart.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const dataDir = path.join(repoRoot, 'datasets')
const readme = readFileSync(path.join(repoRoot, 'docs/agents.md'), 'utf8')

async function score(id: string, seed: number, options: { rows?: number } = {}) {
  const { task } = await loadDataset({ id, seed, dataDir, ...options })
  const result = (await baselineAgent.run(task, {
    seed,
    trial: 0,
    signal: new AbortController().signal,
  })) as AgentRunResult
  return gradeRepair(task, result.fixes)
}

/** `| hospital (509 errors) | 0.957 | 0.880 | 0.917 |` → the three numbers of the README row starting with `label`. */
function published(label: string): [string, string, string] {
  const row = readme.split('\n').find((line) => line.startsWith(`| ${label}`))
  if (!row) throw new Error(`docs/agents.md has no row for ${label}`)
  const cells = row.split('|').map((c) => c.trim())
  return [cells[2]!, cells[3]!, cells[4]!.split(' ')[0]!]
}

describe('the published baseline scores', () => {
  it.each([
    ['hospital', 'hospital (509 errors)', ['0.957', '0.880', '0.917'], 509],
    ['flights', 'flights (4,920 errors)', ['0.988', '0.234', '0.379'], 4920],
    ['beers', 'beers (4,362 errors)', ['0.994', '0.985', '0.990'], 4362],
    ['rayyan', 'rayyan (948 errors)', ['0.000', '0.000', '0.000'], 948],
  ] as const)('%s', async (id, label, pinned, errors) => {
    const s = await score(id, 0)
    expect([formatNumber(s.precision), formatNumber(s.recall), formatNumber(s.f1)]).toEqual(pinned)
    expect(s.tp + s.fn).toBe(errors)
    expect(published(label)).toEqual(pinned)
  })

  it('rayyan: 5 wrong fixes, 0 right', async () => {
    const s = await score('rayyan', 0)
    expect([s.tp, s.fp]).toEqual([0, 5])
    expect(readme).toContain('| rayyan (948 errors) | 0.000 | 0.000 | 0.000 (5 wrong fixes, 0 right) |')
  })

  it('synthetic (200 rows), seeds 42–44: macro means and the sample std of F1', async () => {
    const scores = await Promise.all([42, 43, 44].map((seed) => score('synthetic', seed)))
    const f1s = scores.map((s) => s.f1)
    const m = mean(f1s)
    const std = Math.sqrt(f1s.reduce((a, v) => a + (v - m) ** 2, 0) / (f1s.length - 1))
    const measured = [
      formatNumber(mean(scores.map((s) => s.precision))),
      formatNumber(mean(scores.map((s) => s.recall))),
      formatNumber(m),
    ]
    expect(measured).toEqual(['0.967', '0.424', '0.587'])
    expect(formatNumber(std)).toBe('0.073')
    expect(published('synthetic (200 rows), seeds 42–44')).toEqual(measured)
    expect(readme).toContain('| synthetic (200 rows), seeds 42–44 | 0.967 | 0.424 | 0.587 ± 0.073 |')
  })
})
