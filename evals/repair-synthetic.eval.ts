import { expect } from 'vitest'
import { agentFromEnv, evalCase } from 'dataforge-evals/vitest'

// The main job's keyless default: the oracle, the floor and the deterministic baseline on seeded synthetic
// tables. Set DATAFORGE_AGENT (e.g. groq-llama-70b or ./my-agent.ts) to put your own agent beside them.
const trials = 3
const seed = 42

evalCase('synthetic repair', { dataset: 'synthetic', agent: 'mock', trials, seed, category: 'oracle' }, async ({ task, agent }) => {
  expect(await agent.run(task)).toRepairCells(task, { minF1: 1 })
})

// The floor is held to the baseline's bar and expected to miss it (`.fails`): its tests pass, its runs are not
// correct, so the leaderboard shows it at Score 0 beside the oracle's 1.
evalCase.fails('synthetic repair', { dataset: 'synthetic', agent: 'noop', trials, seed, category: 'floor' }, async ({ task, agent }) => {
  expect(await agent.run(task)).toRepairCells(task, { minPrecision: 0.8, minF1: 0.25 })
})

evalCase('synthetic repair', { dataset: 'synthetic', agent: 'baseline', trials, seed }, async ({ task, agent, record }) => {
  const output = await agent.run(task)
  const fixes = Array.isArray(output) ? output : output.fixes
  record('fixes proposed', fixes.length)
  expect(output).toRepairCells(task, { minPrecision: 0.8, minF1: 0.25 })
})

const candidate = agentFromEnv({ fallback: '' })
if (candidate) {
  evalCase('synthetic repair', { dataset: 'synthetic', agent: candidate, trials, seed, timeout: 300_000 }, async ({ task, agent }) => {
    expect(await agent.run(task)).toRepairCells(task, { minF1: 0.5 })
  })
}
