import type { LlmConfig } from './trial-llm.js'

const OWN_UPSTREAM = Symbol.for('dataforge-evals.own-upstream')

/**
 * Marks a built-in model agent with its own upstream (its preset's URL, key, limits, cache mode and call policy).
 * The trial path registers the agent's trials with the gateway on that upstream, whatever the run's `--llm`.
 * The config sits behind a function, so printing an agent never shows its key; a spread copy keeps the mark.
 */
export function withOwnUpstream<A extends object>(agent: A, config: LlmConfig): A {
  Object.assign(agent, { [OWN_UPSTREAM]: () => config })
  return agent
}

/** The agent's own upstream, or null for an agent that takes the run's (`--llm`, the `llm` option). */
export function ownUpstreamOf(agent: unknown): LlmConfig | null {
  const get = agent && typeof agent === 'object' ? (agent as Record<symbol, unknown>)[OWN_UPSTREAM] : undefined
  return typeof get === 'function' ? (get as () => LlmConfig)() : null
}
