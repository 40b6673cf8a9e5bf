/** Agents: the mock oracles, the baselines, the data agent and the built-in OpenAI-compatible providers. */

export { boundedEditDistance } from './baseline/edit-distance.js'
export { baselineAgent, createBaselineAgent } from './baseline/index.js'
export {
  DATA_AGENTS,
  type DataAgentOptions,
  isModelBackedSpec,
  listDataAgents,
  resolveDataAgent,
  resolveDataAgentSpec,
} from './data-agents.js'
export { loadAgentModule } from './load-agent-module.js'
export { createMockQaAgent, type ScriptedAnswer } from './mock-qa.js'
export { modelClassifier, type ModelClassifierOptions } from './model-classifier.js'
export { createModelQaAgent, createProviderQaAgent, parseModelAnswer, renderTables } from './model-qa.js'
export { noopAgent } from './noop.js'
export {
  type ChatClient,
  createChatClient,
  priceMapFromOpenRouterModels,
  PROVIDER_PRESETS,
  type ProviderAgentOptions,
  resolveCacheOptions,
} from './providers/index.js'
export { safeToken } from './providers/safe-token.js'
export {
  type AgentListing,
  type AgentSpec,
  builtInAgentNames,
  closeAgent,
  listAgents,
  resolveAgent,
  resolveCustomDataAgent,
} from './registry.js'
export * from './data-agent/index.js'
export * from './providers/index.js'
