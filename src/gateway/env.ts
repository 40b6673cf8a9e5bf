import { LLM_PRESETS } from './presets.js'
import type { Gateway, ProcessLease } from './gateway.js'
import { keyVariablesInUse } from './upstream.js'

/**
 * The environment an agent process gets for the gateway: the OpenAI and Anthropic SDKs' variables point at it,
 * with the process's token in place of a key (the token stands for whichever trial the process serves). Every
 * variable that holds an upstream key is set to undefined, which removes it from the child's environment.
 */
export function gatewayEnv(
  gateway: Pick<Gateway, 'url'>,
  lease: Pick<ProcessLease, 'token'>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {}
  for (const name of keyVariables()) env[name] = undefined
  env['ANTHROPIC_AUTH_TOKEN'] = undefined
  env['OPENAI_BASE_URL'] = `${gateway.url}/v1`
  env['OPENAI_API_KEY'] = lease.token
  env['ANTHROPIC_BASE_URL'] = gateway.url
  env['ANTHROPIC_API_KEY'] = lease.token
  return env
}

function keyVariables(): Set<string> {
  const names = new Set<string>(keyVariablesInUse())
  for (const p of Object.values(LLM_PRESETS)) if (p.keyEnv) names.add(p.keyEnv)
  return names
}
