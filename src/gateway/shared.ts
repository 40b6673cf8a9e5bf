import { type Gateway, type GatewayOptions, startGateway } from './gateway.js'

let shared: Promise<Gateway> | null = null

/**
 * The process's gateway, started on first use: one server for every trial of every front door in this process
 * (each trial registers its own upstream, cache mode and budget). Its sockets (the listener and
 * each client's connection) do not keep the process alive.
 */
export function sharedGateway(options?: GatewayOptions): Promise<Gateway> {
  shared ??= startGateway(options).catch((error) => {
    shared = null
    throw error
  })
  return shared
}

/** Closes the shared gateway (tests); the next `sharedGateway()` starts a new one. */
export async function closeSharedGateway(): Promise<void> {
  const current = shared
  shared = null
  if (current) await (await current).close()
}
