/**
 * The harness's own cost inside Vitest: 1,000 trivial `evalCase` cases against 1,000 plain `test()` cases,
 * each file run by `startVitest` in this one process with the dataforge reporter (which builds and writes the
 * report for the evalCase run). Goal: evalCase wall time ≤ 1.3 × the plain run's.
 * Run alone: `node --import jiti/register bench/vitest-overhead.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { Reporter, TestModule } from 'vitest/node'
import { startVitest } from 'vitest/node'
import DataforgeReporter from '../src/reporter/index.js'

const CASES = 1_000
const ROUNDS = 6
const GOAL = 1.3
const fixtureRoot = fileURLToPath(new URL('../test/fixtures/vitest/bench-overhead/', import.meta.url))
const setupFile = fileURLToPath(new URL('../src/vitest/setup.ts', import.meta.url))

interface Timing {
  wallMs: number
  /** Vitest's own duration of the test file (collect + run), without server start-up. */
  fileMs: number
  passed: number
}

/** Counts passed tests and keeps the file's duration. */
class TimingReporter implements Reporter {
  passed = 0
  fileMs = 0

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const module of modules) {
      this.fileMs += module.diagnostic().duration
      for (const t of module.children.allTests()) if (t.result().state === 'passed') this.passed++
    }
  }
}

async function runOnce(file: string, work: string): Promise<Timing> {
  const timing = new TimingReporter()
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  quiet.end = (() => quiet) as Writable['end']
  const savedExitCode = process.exitCode
  const started = performance.now()
  try {
    await startVitest(
      'test',
      [file],
      {
        root: fixtureRoot,
        config: false,
        watch: false,
        include: ['*.eval.ts'],
        setupFiles: [setupFile],
        reporters: [timing, new DataforgeReporter({ outputDir: join(work, 'reports'), print: false })],
      },
      { cacheDir: join(work, 'vite-cache') },
      { stdout: quiet, stderr: quiet },
    )
  } finally {
    // The plain run has no eval to score, so the reporter fails it closed: not what is measured here.
    process.exitCode = savedExitCode
  }
  const wallMs = performance.now() - started
  if (timing.passed !== CASES) throw new Error(`${file}: ${timing.passed} of ${CASES} tests passed`)
  return { wallMs, fileMs: timing.fileMs, passed: timing.passed }
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export default async function run(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'dataforge-bench-vitest-'))
  try {
    // Warm-up: Vite's transform cache and the file system, for both files.
    await runOnce('plain.eval.ts', work)
    await runOnce('eval-case.eval.ts', work)
    const plain: Timing[] = []
    const evals: Timing[] = []
    // Pairs in alternating order; the ratio is the median of the pairs' ratios, which a slow drift in the
    // machine's load (other processes) shifts far less than a ratio of medians.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        plain.push(await runOnce('plain.eval.ts', work))
        evals.push(await runOnce('eval-case.eval.ts', work))
      } else {
        evals.push(await runOnce('eval-case.eval.ts', work))
        plain.push(await runOnce('plain.eval.ts', work))
      }
    }
    const plainWall = median(plain.map((t) => t.wallMs))
    const evalWall = median(evals.map((t) => t.wallMs))
    const plainFile = median(plain.map((t) => t.fileMs))
    const evalFile = median(evals.map((t) => t.fileMs))
    const ratio = median(evals.map((t, i) => t.wallMs / plain[i]!.wallMs))
    const fileRatio = median(evals.map((t, i) => t.fileMs / plain[i]!.fileMs))
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
    return [
      '## Vitest integration overhead',
      '',
      `${CASES} trivial \`evalCase\` cases against ${CASES} plain \`test()\` cases, each file run by \`startVitest\` in one process ` +
        `with the dataforge reporter; medians of ${ROUNDS} rounds after a warm-up (the ratio: median of the rounds' ratios).`,
      '',
      '| benchmark | result | goal | status |',
      '| --- | --- | --- | --- |',
      `| wall time, ${CASES} plain tests | ${s(plainWall)} (test file ${s(plainFile)}) | — | — |`,
      `| wall time, ${CASES} evalCase cases, report written | ${s(evalWall)} (test file ${s(evalFile)}) | — | — |`,
      `| wall-time ratio evalCase / plain | ${ratio.toFixed(2)}× (running the tests only: ${fileRatio.toFixed(2)}×) | ≤ ${GOAL}× | ${ratio <= GOAL ? 'met' : 'MISSED'} |`,
      '',
    ].join('\n')
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const invokedPath = process.argv[1] ?? ''
if (/bench[\\/]vitest-overhead\.(ts|js|mjs)$/.test(invokedPath)) {
  run().then(
    (markdown) => process.stdout.write(`${markdown}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
