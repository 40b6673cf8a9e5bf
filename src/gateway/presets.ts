/** Request limits applied per client: at most `concurrency` calls in flight, at most `rpm` starts a minute (0 = no cap). */
export interface ProviderLimits {
  concurrency: number
  rpm: number
}

export interface ProviderPreset {
  /** The agent name used on the command line (`groq-llama-70b`). */
  id: string
  /** The provider behind it (`groq`), shown in reports. */
  provider: string
  /** OpenAI-compatible base URL; empty for `openai-compatible`, which needs `--base-url`. */
  baseUrl: string
  /** Model id; empty for `openai-compatible`, which needs `--model`. */
  defaultModel: string
  /** Environment variable that holds the API key; null where the server needs none (Ollama). */
  apiKeyEnv: string | null
  /** Requests a day on the provider's free tier; one live call costs 1/quotaPerDay quota units (0 = not metered). */
  quotaPerDay: number
  limits: ProviderLimits
}

/**
 * Built-in agents. Free-tier figures as published by each provider; the request limits are conservative
 * defaults, overridable per run (`concurrency`, `rpm`).
 */
export const PROVIDER_PRESETS: Record<string, ProviderPreset> = {
  'groq-llama-70b': {
    id: 'groq-llama-70b',
    provider: 'groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    defaultModel: 'llama-3.3-70b-versatile',
    apiKeyEnv: 'GROQ_API_KEY',
    quotaPerDay: 14_400,
    limits: { concurrency: 4, rpm: 30 },
  },
  'cerebras-llama': {
    id: 'cerebras-llama',
    provider: 'cerebras',
    baseUrl: 'https://api.cerebras.ai/v1',
    defaultModel: 'llama-3.3-70b',
    apiKeyEnv: 'CEREBRAS_API_KEY',
    quotaPerDay: 1_000,
    limits: { concurrency: 4, rpm: 30 },
  },
  openrouter: {
    id: 'openrouter',
    provider: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'meta-llama/llama-3.3-70b-instruct:free',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    // OpenRouter's free models allow 50 or 1,000 requests a day depending on credit; 1,000 is the nominal figure.
    quotaPerDay: 1_000,
    limits: { concurrency: 4, rpm: 20 },
  },
  'gemini-flash': {
    id: 'gemini-flash',
    provider: 'gemini',
    // Gemini's OpenAI-compatible endpoint: the key travels as a bearer header, never as `?key=` in the URL.
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    defaultModel: 'gemini-2.0-flash',
    apiKeyEnv: 'GEMINI_API_KEY',
    quotaPerDay: 1_500,
    limits: { concurrency: 4, rpm: 15 },
  },
  'local-ollama': {
    id: 'local-ollama',
    provider: 'ollama',
    baseUrl: 'http://localhost:11434/v1',
    defaultModel: 'llama3.1:8b',
    apiKeyEnv: null,
    quotaPerDay: 0,
    limits: { concurrency: 1, rpm: 0 },
  },
  'openai-compatible': {
    id: 'openai-compatible',
    provider: 'openai-compatible',
    baseUrl: '',
    defaultModel: '',
    apiKeyEnv: 'OPENAI_API_KEY',
    quotaPerDay: 0,
    limits: { concurrency: 4, rpm: 0 },
  },
}

export function presetNames(): string[] {
  return Object.keys(PROVIDER_PRESETS)
}
