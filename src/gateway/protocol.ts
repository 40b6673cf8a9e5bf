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

/** The paths the gateway serves: everything under `/v1/`, the two chat protocols checked field by field. */
export function parseCall(method: string, rawPath: string, bodyText: string): ParsedCall {
  const url = new URL(rawPath, 'http://gateway')
  if (!url.pathname.startsWith('/v1/')) {
    throw new GatewayError(404, 'unknown_path', `unknown path ${url.pathname}: the gateway serves the upstream's API under /v1/ (for example /v1/chat/completions or /v1/messages)`, 'invalid_request')
  }
  const path = url.pathname.slice(3) + url.search
  const protocol: Protocol = url.pathname === '/v1/chat/completions' ? 'openai-chat' : url.pathname === '/v1/messages' ? 'anthropic-messages' : 'other'
  if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') {
    throw new GatewayError(405, 'method_not_allowed', `method ${method} is not supported on ${url.pathname}`, 'invalid_request')
  }
  let body: Record<string, unknown> | null = null
  if (bodyText.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(bodyText)
    } catch (error) {
      throw new GatewayError(400, 'malformed_body', `the request body of ${url.pathname} is not valid JSON (${(error as Error).message})`, 'invalid_request')
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new GatewayError(400, 'malformed_body', `the request body of ${url.pathname} must be a JSON object`, 'invalid_request')
    }
    body = parsed as Record<string, unknown>
  }
  if (protocol !== 'other') checkChatBody(protocol, url.pathname, body, method)
  const model = typeof body?.['model'] === 'string' ? body['model'] : null
  return { protocol, path, method, body, model, stream: body?.['stream'] === true }
}

function checkChatBody(protocol: Protocol, path: string, body: Record<string, unknown> | null, method: string): void {
  const bad = (field: string, what: string) => new GatewayError(400, 'malformed_body', `${path}: field "${field}" ${what}`, 'invalid_request')
  if (method !== 'POST') throw new GatewayError(405, 'method_not_allowed', `${path} takes POST`, 'invalid_request')
  if (!body) throw new GatewayError(400, 'malformed_body', `${path}: the request has no JSON body`, 'invalid_request')
  if (typeof body['model'] !== 'string' || body['model'] === '') throw bad('model', 'must be a non-empty string')
  if (!Array.isArray(body['messages'])) throw bad('messages', 'must be an array')
  body['messages'].forEach((m, i) => {
    if (!m || typeof m !== 'object' || typeof (m as Record<string, unknown>)['role'] !== 'string') throw bad(`messages[${i}]`, 'must be an object with a string "role"')
  })
  if (protocol === 'anthropic-messages' && typeof body['max_tokens'] !== 'number') throw bad('max_tokens', 'must be a number (Anthropic messages require it)')
  if (body['stream'] !== undefined && typeof body['stream'] !== 'boolean') throw bad('stream', 'must be true or false')
}
