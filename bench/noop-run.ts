/**
 * The 1M-row `noop` run of issue 26, end to end: `dataforge-evals run --agent noop --dataset synthetic
 * --rows 1000000 --trials 1` from the built CLI in a fresh temp folder, ROUNDS times. Wall time from spawn to
 * exit, and the child's peak RSS (reported by a preload at its exit: Node's own `maxRSS`). It generates the
 * dataset and its digests, grades the empty answer (every corrupted cell missed), journals the record and
 * writes the report folder (a 25 MB record, since diagnostics list every missed cell).
 * Run alone: `npm run build && node --import jiti/register bench/noop-run.ts`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './median.js'

const ROUNDS = 3
const ROWS = 1_000_000
const WALL_GOAL_S = 4
const RSS_GOAL_BYTES = 1.1e9
const bin = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url))

function round(work: string, preload: string, i: number): { wallS: number; rssBytes: number } {
  const dir = join(work, `round-${i}`)
  const rssFile = join(work, `rss-${i}`)
  rmSync(dir, { recursive: true, force: true })
  const start = performance.now()
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(preload).href,
      bin,
      'run',
      '--agent',
      'noop',
      '--dataset',
      'synthetic',
      '--rows',
      String(ROWS),
      '--trials',
      '1',
      '--output',
      join(dir, 'report.md'),
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, NOOP_RUN_RSS_FILE: rssFile, DATAFORGE_STATE_DIR: join(work, 'state') },
    },
  )
  const wallS = (performance.now() - start) / 1000
  if (child.status !== 0) throw new Error(`bench/noop-run.ts: the run exited ${child.status}: ${child.stderr}`)
  return { wallS, rssBytes: Number(readFileSync(rssFile, 'utf8')) }
}

export default async function run(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'dataforge-noop-run-'))
  try {
    const preload = join(work, 'rss.mjs')
    // maxRSS is in KiB.
    writeFileSync(
      preload,
      "import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => writeFileSync(process.env.NOOP_RUN_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)))\n",
    )
    return table(work, preload)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

function table(work: string, preload: string): string {
  const rounds = Array.from({ length: ROUNDS }, (_, i) => round(work, preload, i))
  const wall = median(rounds.map((r) => r.wallS))
  const rss = Math.max(...rounds.map((r) => r.rssBytes))
  const walls = rounds.map((r) => `${r.wallS.toFixed(2)} s`).join(', ')
  return [
    '## The 1M-row `noop` run (CLI, end to end)',
    '',
    '`dataforge-evals run --agent noop --dataset synthetic --rows 1000000 --trials 1` from the build, spawn to exit: generate the dataset and its digests, grade, journal, write the report folder.',
    '',
    '| measure | result | goal | status |',
    '| --- | --- | --- | --- |',
    `| wall time, median of ${ROUNDS} (${walls}) | ${wall.toFixed(2)} s | ≤ ${WALL_GOAL_S} s | ${wall <= WALL_GOAL_S ? 'met' : 'missed'} |`,
    `| peak RSS, highest of ${ROUNDS} | ${(rss / 2 ** 20).toFixed(0)} MiB | ≤ 1.1 GB | ${rss <= RSS_GOAL_BYTES ? 'met' : 'missed'} |`,
    '',
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`)
