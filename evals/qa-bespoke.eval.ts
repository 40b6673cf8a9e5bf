import { qaSuite } from 'dataforge-evals/vitest'

// The bespoke question suite with the privileged mock-qa oracle (it must score 100%: this checks the harness).
// To evaluate a model instead, swap the agent for a model-backed one, e.g. (needs OPENROUTER_API_KEY, or
// DATAFORGE_CACHE=replay with a recorded cassette):
//   qaSuite('bespoke', { agent: 'openrouter', trials: 3, seed: 1 })
qaSuite('bespoke', { agent: 'mock-qa', trials: 1, seed: 1 })
