/**
 * The harness's own cost inside Vitest, as a user pays it: whole `vitest run` processes over 1,000 trivial
 * cases. The yardstick is plain Vitest (1,000 `test()`s, no dataforge setup file or reporter); against it, the
 * README's pattern (1,000 `evalCase`s whose body calls the agent and asserts `toRepairCells`) and 1,000
 * `conversation` turns asserting `toBeNumeric`, both with the README's config (setup file, dataforge reporter
 * writing its report, report.html included). As a user has it: `npm pack`, the tarball installed with the pinned
 * Vitest into a new project outside the repository (a package importing itself from inside its repository is
 * transformed by Vite; an installed one is not), the fixture files copied there. So build first.
 * Goal: the README pattern ≤ 1.35 × plain, whole process, median of paired rounds (the 1.15 goal is withdrawn).
 * Run alone: `npm run build && node --import jiti/register bench/vitest-overhead.ts` (`BENCH_VITEST_ROUNDS=n`).
 * Vitest runs on the Node that runs this file: put another Node first on PATH to measure it (BENCHMARKS.md).
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installPacked } from '../test/helpers/packed-project.js'
import { median } from './median.js'

const CASES = 1_000
const ROUNDS = Number(process.env.BENCH_VITEST_ROUNDS ?? 7)
const GOAL = 1.35
const fixtureRoot = fileURLToPath(new URL('../test/fixtures/vitest/bench-overhead/', import.meta.url))
const distEntry = fileURLToPath(new URL('../dist/vitest/setup.js', import.meta.url))

interface Variant {
  key: 'plain' | 'readme' | 'conversation'
  file: string
  config: string
  label: string
}

const VARIANTS: Variant[] = [
  { key: 'plain', file: 'plain.eval.ts', config: 'plain.config.ts', label: `plain Vitest, ${CASES} \`test()\`s` },
  {
    key: 'readme',
    file: 'readme-pattern.eval.ts',
    config: 'evals.config.ts',
    label: `README pattern, ${CASES} \`evalCase\`s (agent call + \`toRepairCells\`)`,
  },
  {
    key: 'conversation',
    file: 'conversation.eval.ts',
    config: 'evals.config.ts',
    label: `${CASES} \`conversation\` turns (100 × 10, \`toBeNumeric\`)`,
  },
]

interface Timing {
  /** The whole process, spawn to exit. */
  wallMs: number
  /** CPU time (user + system) of the process and its workers, where the system reports it (Linux), else null. */
  cpuMs: number | null
  /** Vitest's tests phase (the `tests` of its Duration line). */
  testsMs: number
}

/** A new project outside the repository with the packed tarball and the pinned Vitest installed, the fixtures copied in. */
async function packedProject(work: string): Promise<string> {
  const project = join(work, 'project')
  mkdirSync(project)
  await installPacked(work, project, { beside: ['vitest'] })
  cpSync(fixtureRoot, project, { recursive: true })
  return project
}

/**
 * CPU time of this process's waited-for children and their own children (`cutime` + `cstime` of
 * /proc/self/stat, in clock ticks of 10 ms), or null off Linux. Under load a wall time mostly measures the
 * queue for the cores; the CPU a run spends moves far less.
 */
function childrenCpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ')
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return null
  }
}

function runOnce(variant: Variant, work: string, project: string): Promise<Timing> {
  const timingFile = join(work, `${variant.key}.json`)
  rmSync(timingFile, { force: true })
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_TIMING_FILE: timingFile,
    BENCH_REPORTS_DIR: join(work, 'reports'),
    BENCH_CACHE_DIR: join(work, 'vite-cache'),
  }
  delete env.DATAFORGE_ANNOTATE
  delete env.DATAFORGE_UPDATE_BASELINE
  const started = performance.now()
  const cpuBefore = childrenCpuMs()
  return new Promise((resolve, reject) => {
    const vitestCli = join(project, 'node_modules/vitest/vitest.mjs')
    const child = spawn(process.execPath, [vitestCli, 'run', '--config', variant.config, variant.file], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const wallMs = performance.now() - started
      const cpuAfter = childrenCpuMs()
      const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore
      if (code !== 0 || !existsSync(timingFile))
        return reject(new Error(`${variant.file}: vitest exited with ${code}\n${output.slice(-2000)}`))
      const { testsMs, passed } = JSON.parse(readFileSync(timingFile, 'utf8')) as { testsMs: number; passed: number }
      if (passed !== CASES) return reject(new Error(`${variant.file}: ${passed} of ${CASES} tests passed`))
      resolve({ wallMs, cpuMs, testsMs })
    })
  })
}

export default async function run(): Promise<string> {
  if (!existsSync(distEntry))
    throw new Error('bench/vitest-overhead.ts loads the package from dist/: run `npm run build` first')
  const work = mkdtempSync(join(tmpdir(), 'dataforge-bench-vitest-'))
  try {
    const project = await packedProject(work)
    const loadBefore = loadavg()[0]!
    const loads: number[] = []
    const timings = new Map<Variant['key'], Timing[]>(VARIANTS.map((v) => [v.key, []]))
    // Warm-up: Vite's transform cache and the file system.
    for (const variant of VARIANTS) await runOnce(variant, work, project)
    // Rounds run the three variants back to back, in rotating order; each ratio is the median over rounds of
    // that round's eval time / plain time, which a drift in the machine's load shifts far less than a ratio
    // of medians.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < VARIANTS.length; i++) {
        const variant = VARIANTS[(round + i) % VARIANTS.length]!
        timings.get(variant.key)!.push(await runOnce(variant, work, project))
      }
      loads.push(loadavg()[0]!)
    }
    const plain = timings.get('plain')!
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
    const perCase = (ms: number) => `${((ms / CASES) * 1000).toFixed(0)} µs`
    const rows = VARIANTS.map((variant) => {
      const runs = timings.get(variant.key)!
      const wall = median(runs.map((t) => t.wallMs))
      const tests = median(runs.map((t) => t.testsMs))
      const phase = `${s(tests)} (${perCase(tests)} a case)`
      const cpus = runs.map((t) => t.cpuMs)
      const cpu = cpus.every((c) => c !== null) ? s(median(cpus as number[])) : '—'
      if (variant.key === 'plain') return `| ${variant.label} | ${s(wall)} | ${cpu} | ${phase} | — | — | — | — |`
      const ratio = median(runs.map((t, i) => t.wallMs / plain[i]!.wallMs))
      const cpuRatio = cpus.every((c) => c !== null)
        ? `${median(runs.map((t, i) => t.cpuMs! / plain[i]!.cpuMs!)).toFixed(2)}×`
        : '—'
      const testsRatio = median(runs.map((t, i) => t.testsMs / plain[i]!.testsMs))
      return `| ${variant.label} | ${s(wall)} | ${cpu} | ${phase} | ${ratio.toFixed(2)}× (tests phase ${testsRatio.toFixed(1)}×) | ${cpuRatio} | ≤ ${GOAL}× | ${ratio <= GOAL ? 'met' : 'MISSED'} |`
    })
    return [
      '## Vitest integration overhead',
      '',
      `Whole \`vitest run\` processes, ${CASES} trivial cases each, in a project where the packed tarball is installed; ` +
        `medians of ${ROUNDS} rounds after a warm-up (a ratio is the median ` +
        "of the rounds' ratios to the plain run of the same round). Tests phase: Vitest's own `tests` time (running the cases, " +
        'without start-up, import and the reporter). CPU: user and system time of the run and its workers; its ratio is ' +
        'paired like the wall time. The goal is on the wall time.',
      '',
      `Load average (1 min) ${loadBefore.toFixed(1)} at the start, ${median(loads).toFixed(1)} the median after a round ` +
        `(${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}), on ${cpus().length} cores, Node ${process.version}.`,
      '',
      '| run | wall time | CPU | tests phase | ratio to plain | CPU ratio | goal | status |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
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
