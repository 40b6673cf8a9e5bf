import { randomBytes } from 'node:crypto'
import { GatewayError } from './errors.js'

/**
 * Tokens the gateway hands out in place of keys. A trial token names one trial and dies with it; a process token
 * names an agent process and resolves to whichever trial that process serves at the moment (none between trials).
 */
export class TokenRegistry<T extends { label: string }> {
  private readonly trials = new Map<string, T>()
  private readonly finished = new Map<string, string>()
  private readonly leases = new Map<string, Set<T>>()

  issueTrial(trial: T): string {
    const token = newToken('dfg-t-')
    this.trials.set(token, trial)
    return token
  }

  /** The trial token is refused from now on, with a message naming the finished trial. */
  retire(token: string): void {
    const trial = this.trials.get(token)
    if (!trial) return
    this.trials.delete(token)
    this.finished.set(token, trial.label)
    // Bounded memory in long runs: the oldest finished tokens are forgotten (then refused as unknown).
    if (this.finished.size > 100_000) this.finished.delete(this.finished.keys().next().value as string)
  }

  issueLease(): string {
    const token = newToken('dfg-p-')
    this.leases.set(token, new Set())
    return token
  }

  bindLease(token: string, trial: T): () => void {
    const bound = this.leases.get(token)
    if (!bound) throw new Error('gateway: unknown process token')
    bound.add(trial)
    return () => bound.delete(trial)
  }

  dropLease(token: string): void {
    this.leases.delete(token)
  }

  /** The trial a token stands for, or the GatewayError the agent gets (401 unknown or finished, 409 no or several trials). */
  resolve(token: string | null): T {
    if (!token)
      throw new GatewayError(
        401,
        'missing_token',
        'no gateway token: send the trial token as the API key (Authorization: Bearer … or x-api-key)',
        null,
      )
    const trial = this.trials.get(token)
    if (trial) return trial
    const bound = this.leases.get(token)
    if (bound) {
      if (bound.size === 1) return bound.values().next().value as T
      if (bound.size === 0)
        throw new GatewayError(
          409,
          'no_trial',
          'no trial is running in this agent process: the gateway answers its calls only while it serves a trial of a run with a model upstream (--llm, the llm option or DATAFORGE_LLM)',
          null,
        )
      throw new GatewayError(
        409,
        'several_trials',
        'this agent process serves several trials at once; use the per-trial token of each request',
        null,
      )
    }
    const label = this.finished.get(token)
    if (label)
      throw new GatewayError(401, 'trial_finished', `the token of ${label} expired when that trial finished`, null)
    throw new GatewayError(
      401,
      'invalid_token',
      'not a token this gateway issued (agents get a per-trial token in place of an API key)',
      null,
    )
  }
}

function newToken(prefix: string): string {
  return prefix + randomBytes(18).toString('base64url')
}

/** The token a request carries: `Authorization: Bearer …` (OpenAI style) or `x-api-key` (Anthropic style). */
export function tokenOf(headers: Record<string, string | string[] | undefined>): string | null {
  const auth = headers['authorization']
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined
  if (bearer) return bearer
  const key = headers['x-api-key']
  return typeof key === 'string' && key.trim() ? key.trim() : null
}
