import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Runs every benchmark and rewrites the generated part of BENCHMARKS.md. The 1M-row noop run goes first: after
 * the grading bench has held 2 GB in this process, the same run measured 4.2–5.1 s against 3.5–3.6 s alone.
 */
const BENCHES = [
  'noop-run',
  'grading',
  'providers',
  'gateway',
  'transcripts',
  'vitest-overhead',
  'entry-imports',
  'run-end',
  'tracing',
  'data-agent',
  'qa-large',
  'isolation',
  'html-report',
  'viewer',
]
/**
 * Benches run in a process of their own, through jiti's CLI rather than this process's `--import jiti/register`:
 * playwright-core's bundle `require`s an ES module, which Node 20's loader refuses under jiti's hooks
 * (ERR_VM_MODULE_LINK_FAILURE). Each prints its section when run alone.
 */
const OWN_PROCESS = new Set(['html-report', 'viewer'])
const jitiCli = join(dirname(createRequire(import.meta.url).resolve('jiti/package.json')), 'lib/jiti-cli.mjs')
const START = '<!-- bench:start -->'
const END = '<!-- bench:end -->'

async function main(): Promise<void> {
  const sections: string[] = []
  for (const name of BENCHES) {
    const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url))
    if (!existsSync(file)) continue
    process.stderr.write(`bench: ${name}…\n`)
    if (OWN_PROCESS.has(name)) {
      sections.push(
        execFileSync(process.execPath, [jitiCli, file], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          maxBuffer: 2 ** 26,
        }).trim() + '\n',
      )
      continue
    }
    const mod = (await import(pathToFileURL(file).href)) as { default: () => Promise<string> }
    sections.push(await mod.default())
  }
  const machine = `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}.`
  const body = `${START}\n${machine}\n\n${sections.join('\n')}\n${END}`
  process.stdout.write(`${body}\n`)
  const path = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url))
  const current = existsSync(path) ? await readFile(path, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`
  const at = current.indexOf(START)
  const end = current.indexOf(END)
  const next =
    at === -1 || end === -1
      ? `${current}\n${body}\n`
      : `${current.slice(0, at)}${body}${current.slice(end + END.length)}`
  await writeFile(path, next)
}

await main()
