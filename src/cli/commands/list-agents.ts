import { listAgents } from '../../adapters/registry.js'
import { parseArgs } from 'node:util'
import type { Command } from '../io.js'

export const LIST_AGENTS_HELP = `Usage: dataforge-evals list-agents [--json]

Lists the built-in agents and provider presets: name, kind, what it does, default model and key variable.
`

export const listAgentsCommand: Command = async (argv, io) => {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true })
  if (values.help) {
    io.stdout(LIST_AGENTS_HELP)
    return 0
  }
  const json = values.json === true
  const agents = listAgents()
  if (json) {
    io.stdout(`${JSON.stringify(agents, null, 2)}\n`)
    return 0
  }
  const width = Math.max(...agents.map((a) => a.name.length))
  for (const a of agents) {
    const key = a.apiKeyEnv ? ` [key: ${a.apiKeyEnv}]` : ''
    const model = a.defaultModel ? ` [model: ${a.defaultModel}]` : ''
    io.stdout(`${a.name.padEnd(width)}  ${a.kind.padEnd(8)}  ${a.description}${model}${key}\n`)
  }
  io.stdout('\nAny path to a .ts or .js module exporting an agent (default or named "agent") works too.\n')
  return 0
}
