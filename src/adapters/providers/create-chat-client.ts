import { type ChatClient, type ChatClientConfig, openChatClient } from './chat-client.js'
import { type ProviderAgentOptions, resolveProviderConfig } from './resolve-provider.js'

/**
 * The shared client (rate limits, 429 backoff, accounting, record/replay) for any agent built on a provider:
 * by preset name with the agent options, or from a fully resolved configuration.
 */
export function createChatClient(name: string, opts?: ProviderAgentOptions): ChatClient
export function createChatClient(config: ChatClientConfig): ChatClient
export function createChatClient(nameOrConfig: string | ChatClientConfig, opts: ProviderAgentOptions = {}): ChatClient {
  if (typeof nameOrConfig === 'string') return openChatClient(resolveProviderConfig(nameOrConfig, opts))
  return openChatClient(nameOrConfig)
}
