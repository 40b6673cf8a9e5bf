import { listAgents } from '../../adapters/registry.js'
import type { Command } from '../io.js'

export const listAgentsCommand: Command = async (argv, io) => {
  const json = argv.includes('--json')
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
