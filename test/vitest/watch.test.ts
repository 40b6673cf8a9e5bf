import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { FixtureControl } from '../fixtures/vitest/agents.js'
import { fixturesDir, TempDirs, watchFixture } from '../helpers/vitest-run.js'

// Vitest in watch mode (createVitest + start, then rerunTestSpecifications) over test/fixtures/vitest/baseline.

const temp = new TempDirs()
afterAll(() => temp.removeAll())

it('prints per-group deltas against the previous run after each rerun and keeps groups that were not rerun', async () => {
  const controlFile = join(temp.make(), 'control.json')
  const control = (c: FixtureControl) => writeFileSync(controlFile, JSON.stringify(c))
  const drifting = resolve(fixturesDir, 'baseline/evals/drifting.eval.ts')
  control({ failTrials: [] })
  const session = await watchFixture({
    fixture: 'baseline',
    outputDir: temp.make(),
    cacheDir: temp.make(),
    env: { DF_FIXTURE_CONTROL: controlFile },
  })
  try {
    const first = session.takeOutput()
    expect(first).toContain('dataforge-evals leaderboard')
    expect(first).not.toContain('since the previous run')
    expect(session.reports.report().config).toMatchObject({ watch: true })

    // A flake: reported, not significant. Only the rerun group is compared.
    control({ failTrials: [3] })
    await session.rerun([drifting])
    const flake = session.takeOutput()
    expect(flake).toContain(
      'since the previous run\n  (informational: never fails the run; a look after every rerun adds false alarms, so only the baseline gates)\n  drifty · synthetic: F1 1.000 → 0.875, pass rate 1.000 → 0.875 · no significant change vs previous run (α=0.05): ' +
        'pass/fail McNemar exact b=1 c=0 p=1.0000 (shown, not gating) · F1 sign-flip exact p=1.0000 (8 generated datasets); Δscore -0.125, ΔF1 -0.125; Holm-corrected over 2 tests\nreports:',
    )
    expect(session.tests.tests.map((t) => t.file)).toEqual(Array(8).fill(drifting))
    // The files still hold the group that was not rerun, with its results from the first run.
    const groups = session.reports.report().aggregates.map((a) => [a.group, a.trialsRequested, a.correct])
    expect(groups).toEqual([
      ['drifty · synthetic', 8, 7],
      ['steady · synthetic', 8, 8],
    ])
    expect(session.reports.runs()).toHaveLength(16)

    // A real regression against the previous run: Holm over the two groups' F1 tests puts p = 0.0313 at 0.0625.
    // Either way the deltas of repeated looks fail no gate (the failing tests fail on their own).
    control({ failTrials: [0, 1, 2, 3, 4, 5, 6] })
    await session.rerun([drifting])
    const regression = session.takeOutput()
    expect(regression).not.toContain('gate failed')
    expect(regression).toContain(
      '  drifty · synthetic: F1 0.875 → 0.125, pass rate 0.875 → 0.125 · no significant change vs previous run (α=0.05): pass/fail McNemar exact b=6 c=0 p=0.0313 (shown, not gating) · F1 sign-flip exact p=0.0313 (Holm 0.0625) (8 generated datasets)',
    )

    // And so is the recovery.
    control({ failTrials: [] })
    await session.rerun([drifting])
    expect(session.takeOutput()).toContain(
      '  drifty · synthetic: F1 0.125 → 1.000, pass rate 0.125 → 1.000 · better vs previous run (α=0.05): pass/fail McNemar exact b=0 c=7 p=0.0156 (shown, not gating) · F1 sign-flip exact p=0.0156 (Holm 0.0313) (8 generated datasets); Δscore +0.875, ΔF1 +0.875; Holm-corrected over 2 tests',
    )
    expect(session.reports.report().aggregates.map((a) => [a.group, a.correct])).toEqual([
      ['drifty · synthetic', 8],
      ['steady · synthetic', 8],
    ])
  } finally {
    await session.close()
  }
}, 60_000)
