import type { LlmAccess } from '../core/llm.js'
import { gatewayEnv } from './env.js'
import { sharedGateway } from './shared.js'

/** What an isolated agent's host needs of the gateway: the environment to start processes with, and the binding per trial. */
interface AgentGateway {
  /** OPENAI_BASE_URL, OPENAI_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (and every upstream key variable unset). */
  env: Record<string, string | undefined>
  /** While a trial runs in the agent's process: its calls count for the trial whose `ctx.llm` this is. */
  bind(llm: LlmAccess | undefined): () => void
  close(): void
}

/**
 * The gateway side of one isolated agent: one process token for all its processes (they serve one trial at a time),
 * bound to each trial while it runs. Between trials, and in runs without an upstream, calls are refused (409).
 */
export async function agentGateway(): Promise<AgentGateway> {
  const gateway = await sharedGateway()
  const lease = gateway.lease()
  return { env: gatewayEnv(gateway, lease), bind: (llm) => lease.bind(llm), close: () => lease.close() }
}
