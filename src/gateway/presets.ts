/** Request limits applied per client: at most `concurrency` calls in flight, at most `rpm` starts a minute (0 = no cap). */
export interface ProviderLimits {
  concurrency: number
  rpm: number
}

/** An upstream by name (`--llm groq`): where its calls go and the variable that holds its key. */
export interface LlmPreset {
  /** The provider (`groq`), shown in reports. */
  provider: string
  /** OpenAI-compatible base URL; empty for `openai-compatible`, which needs `--base-url`. */
  baseUrl: string
  /** Environment variable that holds the API key; null where the server needs none (Ollama). */
  keyEnv: string | null
  /** Requests a day on the provider's free tier; one live call costs 1/quotaPerDay quota units (0 = not metered). */
  quotaPerDay: number
  limits: ProviderLimits
}

/** A built-in agent: its upstream preset and the model it asks by default. */
export interface ProviderPreset extends LlmPreset {
  /** The agent name used on the command line (`groq-llama-70b`). */
  id: string
  /** Model id; empty for `openai-compatible`, which needs `--model`. */
  defaultModel: string
}

/**
 * Upstreams by name, the one table of base URLs and key variables. Free-tier figures as published by each
 * provider; the request limits are conservative defaults, overridable per run (`concurrency`, `rpm`).
 */
export const LLM_PRESETS: Record<string, LlmPreset> = {
  groq: {
    provider: 'groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    keyEnv: 'GROQ_API_KEY',
    quotaPerDay: 14_400,
    limits: { concurrency: 4, rpm: 30 },
  },
  cerebras: {
    provider: 'cerebras',
    baseUrl: 'https://api.cerebras.ai/v1',
    keyEnv: 'CEREBRAS_API_KEY',
    quotaPerDay: 1_000,
    limits: { concurrency: 4, rpm: 30 },
  },
  // OpenRouter's free models allow 50 or 1,000 requests a day depending on credit; 1,000 is the nominal figure.
  openrouter: {
    provider: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    quotaPerDay: 1_000,
    limits: { concurrency: 4, rpm: 20 },
  },
  // Gemini's OpenAI-compatible endpoint: the key travels as a bearer header, never as `?key=` in the URL.
  gemini: {
    provider: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    keyEnv: 'GEMINI_API_KEY',
    quotaPerDay: 1_500,
    limits: { concurrency: 4, rpm: 15 },
  },
  ollama: {
    provider: 'ollama',
    baseUrl: 'http://localhost:11434/v1',
    keyEnv: null,
    quotaPerDay: 0,
    limits: { concurrency: 1, rpm: 0 },
  },
  openai: {
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    quotaPerDay: 0,
    limits: { concurrency: 8, rpm: 0 },
  },
  anthropic: {
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    keyEnv: 'ANTHROPIC_API_KEY',
    quotaPerDay: 0,
    limits: { concurrency: 8, rpm: 0 },
  },
}

/** The variable a URL upstream takes its key from unless told otherwise (`--llm-key-env`). */
export const DEFAULT_URL_KEY_ENV = 'OPENAI_API_KEY'

const agent = (id: string, upstream: string, defaultModel: string): ProviderPreset => ({
  id,
  ...LLM_PRESETS[upstream]!,
  defaultModel,
})

/** Built-in agents, each on an upstream preset of `LLM_PRESETS`. */
export const PROVIDER_PRESETS: Record<string, ProviderPreset> = {
  'groq-llama-70b': agent('groq-llama-70b', 'groq', 'llama-3.3-70b-versatile'),
  'cerebras-llama': agent('cerebras-llama', 'cerebras', 'llama-3.3-70b'),
  openrouter: agent('openrouter', 'openrouter', 'meta-llama/llama-3.3-70b-instruct:free'),
  'gemini-flash': agent('gemini-flash', 'gemini', 'gemini-2.0-flash'),
  'local-ollama': agent('local-ollama', 'ollama', 'llama3.1:8b'),
  'openai-compatible': {
    id: 'openai-compatible',
    provider: 'openai-compatible',
    baseUrl: '',
    defaultModel: '',
    keyEnv: DEFAULT_URL_KEY_ENV,
    quotaPerDay: 0,
    limits: { concurrency: 4, rpm: 0 },
  },
}

export function presetNames(): string[] {
  return Object.keys(PROVIDER_PRESETS)
}
