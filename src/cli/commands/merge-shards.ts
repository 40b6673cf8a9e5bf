import { parseArgs } from 'node:util'
import { counted } from '../../stats/number-format.js'
import { InputError } from '../../core/errors.js'
import { mergeShards, shardPaths } from '../../reporter/jest/shards.js'
import type { Command } from '../io.js'

const MERGE_SHARDS_HELP = `Usage: dataforge-evals merge-shards SHARDS...

Merges the parts of a sharded Jest run (jest --shard=i/n with dataforge-evals/jest-reporter) into the report
one unsharded run writes: the same leaderboard.md, report.json, runs.jsonl and manifest.json, the same gates
(thresholds, repeat gate, baseline) and exit code. Each shard's reporter keeps its records and reporter options
in <outputDir>.jest-shards/shard-<i>-of-<n>.json; SHARDS are those files or folders holding them, all n shards of
one run. Run it where Jest ran (the reporter's outputDir and baseline resolve from there).

Exit codes: 0 ok, 1 a gate failed, 2 bad usage or input (a missing, repeated or mismatched shard).
`

export const mergeShardsCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) {
    io.stdout(MERGE_SHARDS_HELP)
    return 0
  }
  if (positionals.length === 0)
    throw new InputError(
      `merge-shards needs the shard files or their folder (e.g. evals/__reports__.jest-shards); see merge-shards --help`,
    )
  const merged = await mergeShards(shardPaths(positionals, io.cwd), io.cwd, io.stdout)
  io.stdout(`merged ${counted(merged.records, 'run')} into ${merged.outputDir}\n`)
  return merged.failures.length ? 1 : 0
}
