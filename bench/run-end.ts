/**
 * The end of a Vitest run, in process: what the reporter does between Vitest's `onTestRunEnd` and the process
 * exit (report, gates, report folder with its manifest, printout), on the 1,000 RunRecords the
 * bench-overhead fixtures produce (the README pattern: 1,000 `evalCase`s; 100 conversations × 10 turns).
 * 1. `endRun` into a temp report folder with the reporter's defaults but report.html (bench/html-report.ts times
 *    the page), no baseline file: its first call in a fresh Node process (as in a real run: once, with cold
 *    code), median of FIRST_CALLS processes, and warm (repeated in one process), median of ROUNDS;
 * 2. importing the run end's module graph cold, in a fresh Node process each time (the reporter starts this
 *    import when the tests start, on the main thread that also serves Vitest's worker), median of IMPORTS;
 * 3. the graph's own modules and whether it reaches zod (static imports of the built files).
 * The package is loaded from dist/ as an installed package would be, so build first. `RUN_END_DIST=path`
 * measures another build (e.g. a copy of dist/ made before a change; keep it inside the repository so its
 * imports resolve).
 * Run alone: `npm run build && node --import jiti/register bench/run-end.ts`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { DatasetInfo } from '../src/core/dataset-info.js'
import type { EvalReport } from '../src/report-builder/build.js'
import type { FinishedRun } from '../src/report-builder/reporter-options.js'
import type { RunEndHost } from '../src/report-builder/run-end.js'
import { builtClosure } from '../test/helpers/built-imports.js'
import type { DigestOf } from '../src/core/digest-of.js'
import { median } from './median.js'

const ROUNDS = 21
const WARMUP = 3
const IMPORTS = 11
const FIRST_CALLS = 11
const repoRoot = fileURLToPath(new URL('../', import.meta.url))
const dist = resolve(repoRoot, process.env.RUN_END_DIST ?? 'dist')
const runEndModule = runEndFile(dist)
const fixtureRoot = join(repoRoot, 'test/fixtures/vitest/bench-overhead')
const vitestCli = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')

const FIXTURES = [
  { file: 'readme-pattern.eval.ts', label: 'README pattern (1,000 `evalCase`s)' },
  { file: 'conversation.eval.ts', label: '1,000 `conversation` turns' },
] as const

/** The built run end: the bundle's lazy chunk (`chunks/run-end-HASH.js`), or `report/run-end.js` of a per-file build. */
function runEndFile(dir: string): string {
  const chunks = join(dir, 'chunks')
  const chunk = existsSync(chunks) ? readdirSync(chunks).find((name) => /^run-end-[\w-]+\.js$/.test(name)) : undefined
  return chunk ? join(chunks, chunk) : join(dir, 'report/run-end.js')
}

/**
 * The run end's exports from its built file: the module itself (a per-file build), or the namespace object a
 * bundle chunk exports under a short name (the lazy import takes it from there).
 */
function runEndExports(chunk: Record<string, unknown>): typeof import('../src/report-builder/run-end.js') {
  if (typeof chunk.endRun === 'function') return chunk as unknown as typeof import('../src/report-builder/run-end.js')
  const namespace = Object.values(chunk).find(
    (v) => typeof v === 'object' && v !== null && typeof (v as { endRun?: unknown }).endRun === 'function',
  )
  if (!namespace) throw new Error('bench/run-end.ts: the run end chunk exports no endRun')
  return namespace as typeof import('../src/report-builder/run-end.js')
}

/** Runs a fixture once with the dataforge reporter and turns its report.json back into the run the reporter ended. */
export function finishedRunOf(fixture: string, work: string): FinishedRun {
  const reports = join(work, `fixture-${fixture}`)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_REPORTS_DIR: reports,
    BENCH_CACHE_DIR: join(work, 'vite-cache'),
  }
  delete env.DATAFORGE_UPDATE_BASELINE
  execFileSync(process.execPath, [vitestCli, 'run', '--root', fixtureRoot, '--config', 'evals.config.ts', fixture], {
    env,
    stdio: 'ignore',
  })
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as EvalReport
  const r = report.reproducibility
  // What buildReproducibility reads of each DatasetInfo; the rest (column names, counts) the run end does not use.
  // Entries known only from records (rows null) are derived again from the records by buildReproducibility.
  const described = r.datasets.filter(
    (d) => d.rows !== null && d.columns !== null && d.dirty.bytes !== null && d.clean.bytes !== null,
  )
  const datasets = described.map(
    (d): DatasetInfo => ({
      id: d.id,
      origin: d.origin as DatasetInfo['origin'],
      source: d.source,
      rows: d.rows!,
      columns: d.columns!,
      columnNames: [],
      dirtyCells: 0,
      idColumns: [],
      ...(d.seed === null ? {} : { seed: d.seed }),
      ...(d.options ? { options: d.options } : {}),
      dirty: {
        sha256: d.dirty.sha256,
        bytes: d.dirty.bytes!,
        ...(d.dirty.path ? { path: d.dirty.path } : {}),
        ...(d.dirty.of ? { of: d.dirty.of as DigestOf } : {}),
      },
      clean: {
        sha256: d.clean.sha256,
        bytes: d.clean.bytes!,
        ...(d.clean.path ? { path: d.clean.path } : {}),
        ...(d.clean.of ? { of: d.clean.of as DigestOf } : {}),
      },
    }),
  )
  return {
    records: report.records,
    datasets,
    runDateUtc: r.runDateUtc,
    project: { commit: r.projectCommit, dirty: r.projectDirty },
    touched: new Set(report.aggregates.map((a) => a.group)),
    filtered: false,
    command: String(report.config.command ?? 'vitest run'),
  }
}

/** The reporter's host with its defaults: baseline.json beside the reports (absent), no printing. */
export function defaultHost(outputDir: string): RunEndHost {
  return {
    // The defaults but 'html': the page has its own bench (bench/html-report.ts), and these figures stay comparable.
    options: { outputDir, print: false, formats: ['markdown', 'json', 'jsonl'] },
    root: fixtureRoot,
    outputDir,
    watching: false,
    previous: null,
    baselinePath: join(outputDir, 'baseline.json'),
    baselineOptions: {},
    alpha: 0.05,
    print: () => {},
  }
}

async function timeEndRun(run: FinishedRun, outputDir: string): Promise<number[]> {
  const { endRun } = runEndExports(await import(pathToFileURL(runEndModule).href))
  const times: number[] = []
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    // Each round gets the records as the reporter hands them over: fresh objects, not ones an earlier round touched.
    const fresh = { ...run, records: structuredClone(run.records) }
    const started = performance.now()
    await endRun(defaultHost(outputDir), fresh)
    if (i >= WARMUP) times.push(performance.now() - started)
  }
  return times
}

/** One `endRun` in a fresh process, timed from its call (the module already imported, the records parsed). */
function timeFirstCalls(run: FinishedRun, work: string, outputDir: string): number[] {
  const input = join(work, 'finished-run.json')
  writeFileSync(input, JSON.stringify({ ...run, touched: [...run.touched] }))
  const script = [
    `import { readFileSync } from 'node:fs'`,
    `const chunk = await import(${JSON.stringify(pathToFileURL(runEndModule).href)})`,
    // As runEndExports does: the module, or the namespace a bundle chunk exports.
    "const runEnd = typeof chunk.endRun === 'function' ? chunk : Object.values(chunk).find((v) => typeof v?.endRun === 'function')",
    // What the reporter does once the run end has loaded, while the tests run (absent from older builds).
    'runEnd.readVersionsAhead?.()',
    `const run = JSON.parse(readFileSync(${JSON.stringify(input)}, 'utf8'))`,
    'run.touched = new Set(run.touched)',
    `const host = { ...${JSON.stringify(defaultHost(outputDir))}, print: () => {} }`,
    'const t = performance.now()',
    'await runEnd.endRun(host, run)',
    'process.stdout.write(String(performance.now() - t))',
  ].join('\n')
  const times: number[] = []
  for (let i = 0; i < FIRST_CALLS; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    if (child.status !== 0) throw new Error(`endRun in a fresh process failed: ${child.stderr}`)
    times.push(Number(child.stdout))
  }
  return times
}

function timeColdImport(): number[] {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(runEndModule).href)}); process.stdout.write(String(performance.now() - t))`
  const times: number[] = []
  for (let i = 0; i < IMPORTS; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    if (child.status !== 0) throw new Error(`importing ${runEndModule} failed: ${child.stderr}`)
    times.push(Number(child.stdout))
  }
  return times
}

/** The built run end's own files (modules, or the bundle's chunks) and the packages it reaches through static imports. */
export function staticGraph(entry: string): { modules: number; packages: Set<string> } {
  const { files, packages } = builtClosure(entry)
  return { modules: files.length, packages }
}

const ms = (x: number) => `${x.toFixed(1)} ms`

export default async function run(): Promise<string> {
  if (!existsSync(runEndModule)) throw new Error(`bench/run-end.ts loads ${runEndModule}: run \`npm run build\` first`)
  const work = mkdtempSync(join(tmpdir(), 'dataforge-bench-run-end-'))
  try {
    const rows: string[] = []
    for (const fixture of FIXTURES) {
      const finished = finishedRunOf(fixture.file, work)
      const outputDir = join(work, `out-${fixture.file}`)
      const first = timeFirstCalls(finished, work, outputDir)
      rows.push(
        `| \`endRun\` first call in a fresh process, ${fixture.label} (median of ${FIRST_CALLS}) | ${ms(median(first))} (${ms(Math.min(...first))}–${ms(Math.max(...first))}) |`,
      )
      const times = await timeEndRun(finished, outputDir)
      rows.push(
        `| \`endRun\` warm, ${fixture.label} (median of ${ROUNDS}, after ${WARMUP} warm-up) | ${ms(median(times))} (${ms(Math.min(...times))}–${ms(Math.max(...times))}) |`,
      )
    }
    const imports = timeColdImport()
    const graph = staticGraph(runEndModule)
    rows.push(
      `| import the run end's graph cold, fresh process (median of ${IMPORTS}) | ${ms(median(imports))} (${ms(Math.min(...imports))}–${ms(Math.max(...imports))}) |`,
    )
    rows.push(
      `| its static graph | ${graph.modules} own files; packages: ${[...graph.packages].sort().join(', ') || 'none'} |`,
    )
    return [
      '## The end of a Vitest run, in process',
      '',
      "From Vitest's `onTestRunEnd` to the report folder on disk (`endRun`: report, gates, leaderboard.md, report.json, runs.jsonl, manifest.json), the reporter's defaults but report.html (timed in the HTML report's section), no baseline file.",
      '',
      '| benchmark | result |',
      '| --- | --- |',
      ...rows,
      '',
    ].join('\n')
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`)
