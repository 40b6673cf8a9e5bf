import { setMaxListeners } from 'node:events'
import type { RepairAgent, RunContext } from '../../core/agent.js'
import { AgentFailure } from '../../core/errors.js'
import type { AgentRunResult, AgentTask, Fix } from '../../core/schemas.js'
import { addUsage, emptyUsage } from '../../core/usage.js'
import { withOwnUpstream } from '../../gateway/agent-upstream.js'
import { type ChatClient, openChatClient } from './chat-client.js'
import type { ChatRequest } from './chat-types.js'
import { ProviderFailure } from './failure.js'
import { buildRepairPrompt } from './repair-prompt.js'
import { parseRepairResponse } from './repair-parse.js'
import { type ProviderAgentOptions, resolveProviderConfig } from './resolve-provider.js'

/**
 * A repair agent backed by a provider preset. The key, URL and options are checked now, before any call.
 * Large tables go out as row chunks (in parallel, within the provider's limits) and the fixes are merged.
 * Its calls go through the model gateway: on the trial the harness registered for it (`ctx.llm`, on the preset's
 * own upstream), which then counts the usage, or on trials of its own when it runs outside the harness. Known
 * failures throw a ProviderFailure (an AgentFailure carrying the usage spent so far).
 */
export function createProviderAgent(name: string, opts: ProviderAgentOptions = {}): RepairAgent {
  const config = resolveProviderConfig(name, opts)
  const client = openChatClient(config)
  const agent: RepairAgent = {
    name,
    kind: 'model',
    model: config.model,
    provider: config.provider,
    run: (task, ctx) => runRepair(client, task, ctx, opts),
  }
  return withOwnUpstream(agent, client.llm)
}

async function runRepair(
  client: ChatClient,
  task: AgentTask,
  ctx: RunContext,
  opts: ProviderAgentOptions,
): Promise<AgentRunResult> {
  const prompt = buildRepairPrompt(task, { chunkTokenBudget: opts.chunkTokenBudget })
  const warnings = [...prompt.warnings]
  const request: Omit<ChatRequest, 'messages'> = {}
  if (opts.temperature !== undefined) request.temperature = opts.temperature
  if (opts.maxTokens !== undefined) request.maxTokens = opts.maxTokens
  if (opts.jsonMode) request.jsonMode = true
  const call = {
    trial: ctx.trial,
    seed: ctx.seed,
    caseId: opts.caseId ?? task.name,
    ...(ctx.llm ? { llm: ctx.llm } : {}),
  }
  // On the harness's trial the gateway counts the calls; the agent reports none, so nothing is counted twice.
  const counted = (spent: typeof usage) => (ctx.llm ? emptyUsage() : spent)
  // One failed chunk fails the run: the others are aborted instead of spending more quota.
  const stop = new AbortController()
  // Every chunk waits on this signal (in the rate limiter, in its HTTP call): many chunks are many listeners, not a leak.
  setMaxListeners(prompt.chunks.length * 4 + 10, stop.signal)
  const onAbort = () => stop.abort(ctx.signal.reason)
  if (ctx.signal.aborted) onAbort()
  else ctx.signal.addEventListener('abort', onAbort, { once: true })
  let usage = emptyUsage()
  let steps = 0
  let firstError: unknown
  const perChunk: Fix[][] = []
  const many = prompt.chunks.length > 1
  try {
    await Promise.all(
      prompt.chunks.map(async (chunk, i) => {
        const label = many ? `rows ${chunk.startRow}-${chunk.endRow - 1}: ` : ''
        try {
          const reply = await client.chat({ ...request, messages: chunk.messages }, { ...call, signal: stop.signal })
          usage = addUsage(usage, reply.usage)
          steps++
          warnings.push(...reply.warnings)
          const parsed = parseRepairResponse(reply.content, {
            finishReason: reply.finishReason,
            refusal: reply.refusal,
          })
          perChunk[i] = parsed.fixes
          warnings.push(...parsed.warnings.map((w) => label + w))
        } catch (error) {
          if (firstError !== undefined) return
          firstError = error instanceof AgentFailure ? new AgentFailure(error.kind, label + error.message) : error
          stop.abort(firstError)
        }
      }),
    )
  } finally {
    ctx.signal.removeEventListener('abort', onAbort)
  }
  const unique = [...new Set(warnings)]
  if (firstError instanceof AgentFailure) {
    throw new ProviderFailure(firstError.kind, firstError.message, counted(usage), steps, unique)
  }
  if (firstError !== undefined) throw firstError
  return { fixes: perChunk.flat(), usage: counted(usage), steps, model: client.model, warnings: unique }
}
