import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Runs every benchmark and rewrites the generated part of BENCHMARKS.md. */
const BENCHES = ['grading', 'providers', 'vitest-overhead', 'entry-imports', 'run-end', 'data-agent', 'qa-large', 'isolation', 'html-report']
const START = '<!-- bench:start -->'
const END = '<!-- bench:end -->'

async function main(): Promise<void> {
  const sections: string[] = []
  for (const name of BENCHES) {
    const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url))
    if (!existsSync(file)) continue
    process.stderr.write(`bench: ${name}…\n`)
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
  const next = at === -1 || end === -1 ? `${current}\n${body}\n` : `${current.slice(0, at)}${body}${current.slice(end + END.length)}`
  await writeFile(path, next)
}

await main()
