/**
 * OpenTelemetry out (docs/tracing.md):
 * 1. With DATAFORGE_OTEL unset nothing of OpenTelemetry loads: the static closures of the built entries a run
 *    loads (the Vitest and Jest setups and reporters, the CLI, the run end) reach no `@opentelemetry/` package; the
 *    only way in is the lazy import behind a trace target (tested in test/report-builder/tracing.test.ts).
 * 2. With a target, what tracing costs a model call: 1,000 runs of 10 model calls and 5 tool calls each turned
 *    into spans with the SDK's tracer and serialized as OTLP/JSON lines to a file (the whole `exportTraces`,
 *    packages already loaded), median of ROUNDS, divided by the model calls. Goal ≤ 0.2 ms a call.
 * Run alone: `npm run build && node --import jiti/register bench/tracing.ts`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunRecord } from '../src/core/run-record.js'
import { exportTraces } from '../src/report-builder/tracing/export.js'
import { makeRecord } from '../test/helpers/stats-records.js'
import { builtClosure } from '../test/helpers/built-imports.js'
import { median } from './median.js'

const ROUNDS = 7
const RUNS = 1_000
const CALLS = 10
const TOOLS = 5
const repoRoot = fileURLToPath(new URL('../', import.meta.url))

const ENTRIES = [
  'vitest/setup.js',
  'vitest/index.js',
  'vitest/reporter/index.js',
  'jest/setup.cjs',
  'jest/reporter.cjs',
  'cli/bin.js',
]

function otelPackagesReached(dist: string): { entries: number; packages: string[] } {
  const runEnd = readdirSync(join(dist, 'chunks'))
    .filter((n) => /^run-end-[\w-]+\.js$/.test(n))
    .map((n) => join('chunks', n))
  const found = new Set<string>()
  const entries = [...ENTRIES, ...runEnd]
  for (const entry of entries)
    for (const p of builtClosure(resolve(dist, entry)).packages) if (p.startsWith('@opentelemetry/')) found.add(p)
  return { entries: entries.length, packages: [...found] }
}

function records(): RunRecord[] {
  const start = Date.parse('2026-12-03T10:00:00.000Z')
  return Array.from({ length: RUNS }, (_, i) => ({
    ...makeRecord({ caseId: `case-${i}`, trial: 0, correct: i % 3 !== 0 }),
    startedAt: new Date(start + i * 1000).toISOString(),
    runtimeS: 0.9,
    llmCalls: Array.from({ length: CALLS }, (_, c) => ({
      protocol: 'openai-chat' as const,
      path: '/chat/completions',
      model: 'm-bench',
      stream: c % 2 === 0,
      promptTokens: 400,
      completionTokens: 80,
      latencyMs: 50,
      cache: 'hit' as const,
      status: 200,
      error: null,
      startedAtMs: start + i * 1000 + c * 80,
    })),
    toolCalls: Array.from({ length: TOOLS }, (_, t) => ({
      name: t % 2 ? 'sql' : 'describe',
      arguments: '{"query":"SELECT 1"}',
      resultChars: 120,
      source: 'model' as const,
      call: t,
    })),
  }))
}

export default async function run(): Promise<string> {
  const dist = resolve(repoRoot, 'dist')
  if (!existsSync(join(dist, 'vitest/setup.js'))) throw new Error('dist/ is missing: run `npm run build` first')
  const reached = otelPackagesReached(dist)
  const runs = records()
  const work = mkdtempSync(join(tmpdir(), 'dataforge-bench-otel-'))
  const times: number[] = []
  try {
    // The first export loads the packages; the rounds time what every run's end pays after that.
    await exportTraces(runs.slice(0, 1), { kind: 'file', path: join(work, 'warm.jsonl') })
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now()
      const result = await exportTraces(runs, { kind: 'file', path: join(work, `r${round}.jsonl`) })
      times.push(performance.now() - started)
      if (result.warning) throw new Error(result.warning)
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  const perCall = median(times) / (RUNS * CALLS)
  return [
    '## OpenTelemetry out',
    '',
    `| benchmark | result | goal | status |`,
    '| --- | --- | --- | --- |',
    `| \`@opentelemetry/\` packages reached by the built entries and the run end without a target (${reached.entries} files' static closures) | ${reached.packages.length} | 0 | ${reached.packages.length === 0 ? 'met' : 'missed'} |`,
    `| ${RUNS.toLocaleString('en')} runs × ${CALLS} model calls + ${TOOLS} tool calls to an OTLP/JSON file, median of ${ROUNDS} (${(median(times) / 1000).toFixed(2)} s) | ${(perCall * 1000).toFixed(1)} µs a model call | ≤ 200 µs | ${perCall <= 0.2 ? 'met' : 'missed'} |`,
    '',
  ].join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`)
}
