import { qaSuite } from 'dataforge-evals/vitest'

// The dabench question suite (the bundled 102-question InfiAgent-DABench slice) with the privileged mock-qa
// oracle: it must score 100% on ABQ, PSAQ and UASQ (this checks the harness). To evaluate a model instead,
// swap the agent for a model-backed one, e.g. (needs OPENROUTER_API_KEY, or DATAFORGE_CACHE=replay with a
// recorded cassette), and point dataDir at a clone's examples/DA-Agent/data for the full validation set:
//   qaSuite('dabench', { agent: 'openrouter', trials: 3, seed: 1, dataDir: '../InfiAgent/examples/DA-Agent/data' })
qaSuite('dabench', { agent: 'mock-qa', trials: 1, seed: 1 })
