/** The agent host: child processes, the JSON-lines protocol, Node's permission flags and the sandbox. */

export { refusedEnvName } from './agent-env.js'
export {
  commandSpec,
  isCommandSpec,
  type IsolatedSpec,
  moduleSpec,
  parseCommandSpec,
  provenanceOf,
} from './agent-spec.js'
export { refuseInspectorSignal } from './harness-signals.js'
export { type IsolatedAgent, type IsolationOptions, startIsolatedAgent } from './isolated-agent.js'
export type { SandboxLimits } from './sandbox/limits.js'
export { type IsolateLevel, type IsolateOption, isolateOption } from './wall.js'
export * from './protocol.js'
