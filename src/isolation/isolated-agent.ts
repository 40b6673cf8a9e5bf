import type { RepairAgent, RunContext } from '../core/agent.js'
import type { Answer } from '../core/answer.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { AgentFailure } from '../core/errors.js'
import type { AgentRunResult, AgentTask, Fix, Table } from '../core/schemas.js'
import type { LlmAccess } from '../core/llm.js'
import { agentGateway } from '../gateway/process.js'
import { AgentProcess } from './agent-process.js'
import { defaultName, type IsolatedSpec, provenanceOf } from './agent-spec.js'
import { planLaunch, type WallOptions } from './wall.js'
import { PROTOCOL_VERSION } from './protocol.js'
import { StderrRelay } from './stderr-relay.js'

export interface IsolationOptions extends WallOptions {
  /** Where the agent's stderr goes (default: this process's stderr). */
  log?: (chunk: string) => void
}

/** A repair and data agent whose code runs in another process; `close()` ends whatever process is left. */
export interface IsolatedAgent extends RepairAgent, DataAgent {
  kind: 'custom' | 'model'
  /** What the agent said it can do in its `ready` message (absent: not said). */
  capabilities: ReadonlyArray<'repair' | 'data'> | null
  close(): Promise<void>
}

/**
 * Starts an isolated agent. Module agents are loaded once here to learn their name (a load error is an
 * `InputError`-like failure the caller reports); that process then serves the first trial. One process serves
 * the trials of one dataset in turn (each trial gets a fresh module instance and a fresh task); a timeout, crash
 * or exit ends it and the next trial starts a new one.
 */
export async function startIsolatedAgent(spec: IsolatedSpec, opts: IsolationOptions): Promise<IsolatedAgent> {
  // Model gateway (src/gateway/): the agent's OPENAI_*/ANTHROPIC_* variables point at the harness with a process
  // token, bound to each trial while it runs (`gw.bind`); no upstream key reaches the agent.
  const gw = await agentGateway()
  const { launch, isolation } = planLaunch(spec, opts)
  Object.assign(launch.env, gw.env)
  const stderr = new StderrRelay(defaultName(spec), opts.log ?? ((c) => process.stderr.write(c)))
  launch.stderr = stderr
  let idle: AgentProcess | null = new AgentProcess(launch)
  let idleKey: string | null = null
  const ready = await idle.ready
  if (ready.name) stderr.name = ready.name
  const spawnProcess = () => new AgentProcess(launch)
  const live = new Set<AgentProcess>([idle])
  const take = (key: string): AgentProcess => {
    if (idle?.alive && (idleKey === null || idleKey === key)) {
      const p = idle
      idleKey = key
      return p
    }
    if (idle) void retire(idle)
    idle = spawnProcess()
    idleKey = key
    live.add(idle)
    return idle
  }
  const retire = async (p: AgentProcess) => {
    live.delete(p)
    await p.close()
  }
  const kind = ready.kind === 'model' ? 'model' : 'custom'
  return {
    name: ready.name ?? defaultName(spec),
    kind,
    ...(ready.model ? { model: ready.model } : {}),
    ...(ready.provider ? { provider: ready.provider } : {}),
    provenance: { ...provenanceOf(spec), isolation },
    capabilities: ready.capabilities ?? null,
    async run(task: AgentTask, ctx: RunContext): Promise<AgentRunResult> {
      const p = take(task.name)
      const unbind = gw.bind(ctx.llm)
      const reply = await p
        .request(
          { type: 'repair', protocol: PROTOCOL_VERSION, task: plainTask(task), seed: ctx.seed, trial: ctx.trial },
          ctx.signal,
        )
        .finally(unbind)
      if (reply.type !== 'result')
        throw new AgentFailure('invalid_output', `agent answered a repair request with "${reply.type}"`)
      const { type: _t, id: _i, ...result } = reply
      return result as AgentRunResult & { fixes: Fix[] }
    },
    async session(tables: Record<string, Table>, ctx: { seed: number; llm?: LlmAccess }): Promise<DataSession> {
      const unbind = gw.bind(ctx.llm)
      // The process started to learn the agent's name serves the first session if no trial has used it.
      let p: AgentProcess
      if (idle?.alive && idleKey === null) {
        p = idle
        idle = null
      } else {
        p = spawnProcess()
        live.add(p)
      }
      const opened = await p.request({ type: 'open', protocol: PROTOCOL_VERSION, tables, seed: ctx.seed })
      if (opened.type !== 'opened')
        throw new AgentFailure('invalid_output', `agent answered an open request with "${opened.type}"`)
      return {
        async ask(question: string, askCtx?: { signal?: AbortSignal }): Promise<Answer> {
          const reply = await p.request({ type: 'ask', question }, askCtx?.signal)
          if (reply.type !== 'answer')
            throw new AgentFailure('invalid_output', `agent answered a question with "${reply.type}"`)
          return reply.answer
        },
        async close(): Promise<void> {
          if (p.alive) await p.request({ type: 'close' }).catch(() => undefined)
          unbind()
          await retire(p)
        },
      }
    },
    async close(): Promise<void> {
      idle = null
      await Promise.all([...live].map((p) => retire(p)))
      stderr.finish()
      gw.close()
    },
  }
}

/** Only what an agent may see, as plain data (the task object itself is the key to its truth and stays here). */
function plainTask(task: AgentTask): AgentTask {
  return { name: task.name, dirty: task.dirty, columns: task.columns, metadata: task.metadata, seed: task.seed }
}
