import type { FailureKind } from '../core/schemas.js'

/**
 * An answer the gateway gives instead of the upstream's: the HTTP status and a JSON body both SDKs read as an
 * API error (`error.type`, `error.code`, `error.message`). `kind` is how the trial is recorded, null when the
 * error cannot be attributed to a trial (an unknown token).
 */
export class GatewayError extends Error {
  override name = 'GatewayError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly kind: FailureKind | null,
    /** Extra response headers (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** The JSON body of a gateway error; `x-should-retry: false` keeps the SDKs from resending a call the gateway already retried. */
export function errorBody(error: GatewayError): string {
  return JSON.stringify({
    type: 'error',
    error: { type: 'dataforge_gateway_error', code: error.code, message: error.message },
  })
}
