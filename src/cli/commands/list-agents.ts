import { listDataAgents } from '../../adapters/data-agents.js'
import { type AgentListing, listAgents } from '../../adapters/registry.js'
import { parseArgs } from 'node:util'
import type { Command } from '../io.js'

const LIST_AGENTS_HELP = `Usage: dataforge-evals list-agents [--json]

Lists the built-in agents: the repair agents (run --agent NAME), the question agents (qa --agent NAME) and the
provider presets, which both take (run: the model repairs the table; qa: model-qa over the preset). Each with
its kind, what it does, default model and key variable. --json prints the same as an array, each entry with
the commands that take it ("commands": ["run"], ["qa"] or both).
`

const SECTIONS: Array<{ title: string; holds: (a: AgentListing) => boolean }> = [
  { title: 'Repair agents (dataforge-evals run --agent NAME)', holds: (a) => a.commands.join() === 'run' },
  { title: 'Question agents (dataforge-evals qa --agent NAME)', holds: (a) => a.commands.join() === 'qa' },
  {
    title: 'Provider presets (run: the model repairs; qa: model-qa over the preset)',
    holds: (a) => a.commands.length > 1,
  },
]

export const listAgentsCommand: Command = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  })
  if (values.help) {
    io.stdout(LIST_AGENTS_HELP)
    return 0
  }
  const agents = [...listAgents(), ...listDataAgents()]
  if (values.json === true) {
    io.stdout(`${JSON.stringify(agents, null, 2)}\n`)
    return 0
  }
  const width = Math.max(...agents.map((a) => a.name.length))
  for (const { title, holds } of SECTIONS) {
    io.stdout(`${title}:\n`)
    for (const a of agents.filter(holds)) {
      const key = a.apiKeyEnv ? ` [key: ${a.apiKeyEnv}]` : ''
      const model = a.defaultModel ? ` [model: ${a.defaultModel}]` : ''
      io.stdout(`  ${a.name.padEnd(width)}  ${a.kind.padEnd(8)}  ${a.description}${model}${key}\n`)
    }
    io.stdout('\n')
  }
  io.stdout(
    'Any path to a .ts or .js module exporting an agent (default or named "agent"), or cmd:COMMAND, works too.\n',
  )
  return 0
}
