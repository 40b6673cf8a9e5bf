/**
 * The environment an isolated agent gets: a short allow-list, never the harness's own. Everything else (API keys,
 * `npm_*` variables such as `npm_lifecycle_script` that spell out the command line with its `--clean-csv` path,
 * `DATAFORGE_*`, `NODE_OPTIONS`, CI tokens) stays out.
 */

/** Passed from the harness's environment when set there. */
const PASSED = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'COLUMNS',
  'LINES',
  'SYSTEMROOT',
  'PATHEXT',
  'COMSPEC',
  'WINDIR',
]
const PASSED_PREFIXES = ['LC_']

/**
 * The model gateway's variables: they reach the agent only when the harness sets them for it (a base URL on
 * 127.0.0.1 and a per-trial token), never from the harness's own environment, where they may hold a real key.
 */
const GATEWAY_VARIABLES = ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY'] as const

interface AgentEnvOptions {
  /** The harness's environment (default `process.env`). */
  from?: NodeJS.ProcessEnv
  /** Variables the harness sets for the agent (the gateway's); only allow-listed names pass. */
  set?: Record<string, string>
  /** More names to pass from `from`, as the user asked (`--agent-env NAME`). */
  pass?: readonly string[]
  /** Inside the OS sandbox, HOME and TMPDIR point at its private /tmp. */
  sandboxed: boolean
}

/** Names a user may not pass on: they hand the agent the harness's command line or its data's whereabouts. */
export function refusedEnvName(name: string): string | null {
  if (/^npm_/i.test(name)) return 'npm_* variables spell out the command that started the run'
  if (/^DATAFORGE_/i.test(name)) return "DATAFORGE_* variables name the harness's data, caches and reports"
  if (name === 'NODE_OPTIONS') return "NODE_OPTIONS would change how the agent's runtime starts"
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'not a variable name'
  return null
}

export function agentEnv(opts: AgentEnvOptions): NodeJS.ProcessEnv {
  const from = opts.from ?? process.env
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(from)) {
    if (value === undefined) continue
    if (PASSED.includes(key) || PASSED_PREFIXES.some((p) => key.startsWith(p))) env[key] = value
  }
  for (const name of opts.pass ?? []) {
    if (refusedEnvName(name) === null && from[name] !== undefined) env[name] = from[name]
  }
  if (opts.sandboxed) {
    env.HOME = '/tmp'
    env.TMPDIR = '/tmp'
  } else {
    if (from.HOME !== undefined) env.HOME = from.HOME
    if (from.USERPROFILE !== undefined) env.USERPROFILE = from.USERPROFILE
    if (from.TMPDIR !== undefined) env.TMPDIR = from.TMPDIR
  }
  for (const name of GATEWAY_VARIABLES) {
    const value = opts.set?.[name]
    if (value !== undefined) env[name] = value
  }
  return env
}
