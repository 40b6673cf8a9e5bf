import { GatewayError } from './errors.js'
import type { Protocol } from './types.js'

export interface ParsedCall {
  protocol: Protocol
  /** The path under `/v1` (`/chat/completions`), with its query string. */
  path: string
  method: string
  /** The JSON body; null for a request without one (GET /v1/models). */
  body: Record<string, unknown> | null
  model: string | null
  stream: boolean
}

/** The calls read field by field, by path: every other path under `/v1/` is forwarded as `other`. */
const PROTOCOLS: Record<string, Protocol> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/messages': 'anthropic-messages',
  '/v1/responses': 'openai-responses',
}

/** The paths the gateway serves: everything under `/v1/`, the three model protocols checked field by field. */
export function parseCall(method: string, rawPath: string, bodyText: string): ParsedCall {
  const url = new URL(rawPath, 'http://gateway')
  if (!url.pathname.startsWith('/v1/')) {
    throw new GatewayError(
      404,
      'unknown_path',
      `unknown path ${url.pathname}: the gateway serves the upstream's API under /v1/ (for example /v1/chat/completions, /v1/responses or /v1/messages)`,
      'invalid_request',
    )
  }
  const path = url.pathname.slice(3) + url.search
  const protocol: Protocol = PROTOCOLS[url.pathname] ?? 'other'
  if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') {
    throw new GatewayError(
      405,
      'method_not_allowed',
      `method ${method} is not supported on ${url.pathname}`,
      'invalid_request',
    )
  }
  let body: Record<string, unknown> | null = null
  if (bodyText.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(bodyText)
    } catch (error) {
      throw new GatewayError(
        400,
        'malformed_body',
        `the request body of ${url.pathname} is not valid JSON (${(error as Error).message})`,
        'invalid_request',
      )
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new GatewayError(
        400,
        'malformed_body',
        `the request body of ${url.pathname} must be a JSON object`,
        'invalid_request',
      )
    }
    body = parsed as Record<string, unknown>
  }
  if (protocol !== 'other') checkChatBody(protocol, url.pathname, body, method)
  const model = typeof body?.['model'] === 'string' ? body['model'] : null
  return { protocol, path, method, body, model, stream: body?.['stream'] === true }
}

function checkChatBody(protocol: Protocol, path: string, body: Record<string, unknown> | null, method: string): void {
  const bad = (field: string, what: string) =>
    new GatewayError(400, 'malformed_body', `${path}: field "${field}" ${what}`, 'invalid_request')
  if (method !== 'POST') throw new GatewayError(405, 'method_not_allowed', `${path} takes POST`, 'invalid_request')
  if (!body) throw new GatewayError(400, 'malformed_body', `${path}: the request has no JSON body`, 'invalid_request')
  if (body['stream'] !== undefined && typeof body['stream'] !== 'boolean') throw bad('stream', 'must be true or false')
  if (protocol === 'openai-responses') {
    checkResponsesBody(body, bad)
    return
  }
  if (typeof body['model'] !== 'string' || body['model'] === '') throw bad('model', 'must be a non-empty string')
  if (!Array.isArray(body['messages'])) throw bad('messages', 'must be an array')
  body['messages'].forEach((m, i) => {
    if (!m || typeof m !== 'object' || typeof (m as Record<string, unknown>)['role'] !== 'string')
      throw bad(`messages[${i}]`, 'must be an object with a string "role"')
  })
  if (protocol === 'anthropic-messages' && typeof body['max_tokens'] !== 'number')
    throw bad('max_tokens', 'must be a number (Anthropic messages require it)')
}

/**
 * The Responses API (`POST /v1/responses`): a model, unless a stored prompt names it; `input` a string or a list of
 * items, each an object (a message, a function call's output, …).
 */
function checkResponsesBody(body: Record<string, unknown>, bad: (field: string, what: string) => GatewayError): void {
  const model = body['model']
  if (model !== undefined || body['prompt'] === undefined) {
    if (typeof model !== 'string' || model === '') throw bad('model', 'must be a non-empty string')
  }
  const input = body['input']
  if (input === undefined || typeof input === 'string') return
  if (!Array.isArray(input)) throw bad('input', 'must be a string or an array of items')
  input.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw bad(`input[${i}]`, 'must be an object')
  })
}
