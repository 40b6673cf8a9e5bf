import { stat } from 'node:fs/promises'
import { counted } from '../../stats/number-format.js'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import type { RunRecord } from '../../core/run-record.js'
import { mergeCorpora } from '../../report-builder/corpus.js'
import { buildManifest, MANIFEST_FILE, renderManifest } from '../../report-builder/manifest-build.js'
import { lockFolder } from '../../files/folder-lock.js'
import { makeFolder } from '../../files/fs-errors.js'
import { readRunRecords } from '../../files/read-runs.js'
import { commitFiles, removeStaleTemps } from '../../files/write-atomic.js'
import type { Command } from '../io.js'

const CORPUS_HELP = `Usage: dataforge-evals corpus merge IN... --out DIR [--generation G]

Merges run corpora (runs.jsonl, report.json, or folders holding one) into DIR/history.jsonl (every row,
duplicates dropped), DIR/snapshot.jsonl (per case configuration, the newest run at the newest generation
≤ G, carried forward from older generations where G did not run it) and DIR/latest.jsonl (the snapshot
rows of generation G), plus DIR/manifest.json. G defaults to the newest generation present.
See docs/run-record.md for the exact rules.
`

/** The three views and their manifest, written as one unit under the folder's lock (like a report folder). */
async function writeCorpusFolder(
  dir: string,
  label: string,
  views: Record<string, readonly RunRecord[]>,
): Promise<void> {
  const info = await stat(dir).catch(() => null)
  if (info && !info.isDirectory())
    throw new InputError(`${label}: is a file, not a folder; give a folder for the merged views`)
  await makeFolder(dir, 'the folder', label)
  const lock = lockFolder(dir)
  try {
    await removeStaleTemps(dir)
    const contents = new Map<string, string>()
    const rows = new Map<string, readonly RunRecord[]>()
    for (const [name, viewRows] of Object.entries(views)) {
      const path = join(dir, `${name}.jsonl`)
      contents.set(path, viewRows.map((r) => `${JSON.stringify(r)}\n`).join(''))
      rows.set(path, viewRows)
    }
    const manifest = await buildManifest(dir, [...contents.keys()], { contents, rows })
    await commitFiles(new Map([...contents, [join(dir, MANIFEST_FILE), renderManifest(manifest)]]))
  } finally {
    lock.release()
  }
}

export const corpusCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      generation: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    io.stdout(CORPUS_HELP)
    return 0
  }
  const [sub, ...inputs] = positionals
  if (sub !== 'merge')
    throw new InputError(`corpus: unknown subcommand "${sub ?? ''}"; use corpus merge IN... --out DIR`)
  if (inputs.length === 0) throw new InputError('corpus merge needs at least one input')
  if (!values.out) throw new InputError('corpus merge needs --out DIR')
  const corpora: RunRecord[][] = []
  for (const input of inputs) corpora.push(await readRunRecords(resolve(io.cwd, input)))
  const merged = mergeCorpora(corpora, values.generation === undefined ? {} : { generation: values.generation })

  const dir = resolve(io.cwd, values.out)
  const views = { history: merged.history, snapshot: merged.snapshot, latest: merged.latest }
  await writeCorpusFolder(dir, `--out ${values.out}`, views)
  io.stdout(
    `merged ${counted(inputs.length, 'corpus', 'corpora')} (generations: ${merged.generations.map((g) => g ?? '(none)').join(', ') || '(none)'}; ` +
      `target ${merged.target ?? '(none)'}): rows: history ${merged.history.length}, snapshot ${merged.snapshot.length}, ` +
      `latest ${merged.latest.length}; wrote ${[...Object.keys(views).map((n) => `${n}.jsonl`), 'manifest.json'].map((f) => join(values.out!, f)).join(', ')}\n`,
  )
  return 0
}
