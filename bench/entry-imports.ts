/**
 * What loading the package's entries costs, module loading alone, in fresh Node processes: in a worker (after
 * `vitest` is loaded, as Vitest has it) the setup entry then the vitest entry; in the main process (after
 * `vitest/node`) the reporter entry, then what it imports lazily at run start (the run end, the run state, the
 * reproducibility block): every `import()` of a relative file in the reporter's static closure.
 * Compare builds by passing their dist folders, alternated round by round (each must sit inside this repository,
 * so `vitest` resolves): `node --import jiti/register bench/entry-imports.ts dist ../old/dist`. Default: dist.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { builtClosure, DYNAMIC_IMPORT } from '../test/helpers/built-imports.js'
import { median } from './median.js'

const ROUNDS = 10
const repoRoot = fileURLToPath(new URL('..', import.meta.url))
/** The built files `entry` imports statically, itself included. */
const staticClosure = (entry: string): string[] => builtClosure(entry).files

/** The files the static closure of `entry` loads with `import('./…')`, outside that closure. */
function lazyImports(entry: string): string[] {
  const closure = staticClosure(entry)
  const lazy = new Set<string>()
  for (const file of closure)
    for (const m of readFileSync(file, 'utf8').matchAll(DYNAMIC_IMPORT)) lazy.add(resolve(dirname(file), m[1]!))
  return [...lazy].filter((f) => !closure.includes(f))
}

const TIMED = `
const [first, ...steps] = JSON.parse(process.argv[1])
await import(first)
const out = []
for (const urls of steps) {
  const t = performance.now()
  await Promise.all(urls.map((u) => import(u)))
  out.push(performance.now() - t)
}
process.stdout.write(JSON.stringify(out))
`

/** Milliseconds for each step, in one fresh process that first loads `first` untimed. */
async function timeSteps(first: string, steps: string[][]): Promise<number[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', TIMED, JSON.stringify([first, ...steps])],
    { cwd: repoRoot },
  )
  return JSON.parse(stdout) as number[]
}

interface Sample {
  setup: number
  vitest: number
  reporter: number
  runStart: number
}

async function sample(dist: string): Promise<Sample> {
  const url = (path: string) => pathToFileURL(path).href
  const [setup, vitest] = await timeSteps('vitest', [
    [url(resolve(dist, 'vitest/setup.js'))],
    [url(resolve(dist, 'vitest/index.js'))],
  ])
  const reporterEntry = resolve(dist, 'vitest/reporter/index.js')
  const [reporter, runStart] = await timeSteps('vitest/node', [
    [url(reporterEntry)],
    lazyImports(reporterEntry).map(url),
  ])
  return { setup: setup!, vitest: vitest!, reporter: reporter!, runStart: runStart! }
}

export default async function run(dists = ['dist']): Promise<string> {
  const dirs = dists.map((d) => resolve(repoRoot, d))
  for (const dir of dirs)
    if (!existsSync(resolve(dir, 'vitest/setup.js')))
      throw new Error(`${dir}/vitest/setup.js is missing: run \`npm run build\` first`)
  const samples = dirs.map(() => [] as Sample[])
  await Promise.all(dirs.map(sample)) // warm-up: disk cache
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, dir] of dirs.entries()) samples[i]!.push(await sample(dir))
  const rows = dirs.map((dir, i) => {
    const s = samples[i]!
    const cell = (key: keyof Sample) => `${median(s.map((x) => x[key])).toFixed(1)} ms`
    const files = (entry: string) => staticClosure(resolve(dir, entry)).length
    return `| ${dir.slice(repoRoot.length) || '.'} | ${cell('setup')} (${files('vitest/setup.js')} files) | ${cell('vitest')} (${files('vitest/index.js')} files) | ${cell('reporter')} (${files('vitest/reporter/index.js')} files) | ${cell('runStart')} |`
  })
  return [
    '## Entry import times',
    '',
    `Module loading alone, fresh processes, medians of ${ROUNDS} alternated rounds; files: the entry's static closure of our own files.`,
    '',
    "| build | `vitest/setup` (after `vitest`) | then `vitest` | `reporter` (after `vitest/node`) | then the run start's lazy imports |",
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run(process.argv.length > 2 ? process.argv.slice(2) : undefined)}\n`)
}
