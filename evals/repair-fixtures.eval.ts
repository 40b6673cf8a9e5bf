import { expect } from 'vitest'
import { evalCase } from 'dataforge-evals/vitest'

// Committed CSV pairs: a product catalog (custom pair) and a contacts table in the Raha layout.
const products = { id: 'products', dirtyCsv: 'fixtures/repair/products/dirty.csv', cleanCsv: 'fixtures/repair/products/clean.csv' }
const contacts = { id: 'contacts', dataDir: 'fixtures/csv/raha' }

for (const dataset of [products, contacts]) {
  evalCase(`${dataset.id} repair`, { dataset, agent: 'mock', category: 'oracle' }, async ({ task, agent }) => {
    expect(await agent.run(task)).toRepairCells(task)
  })
  // Held to the baseline's bar and expected to miss it: recorded as not correct.
  evalCase.fails(`${dataset.id} repair`, { dataset, agent: 'noop', category: 'floor' }, async ({ task, agent }) => {
    expect(await agent.run(task)).toRepairCells(task, { minPrecision: 0.5, minF1: 0.1 })
  })
  evalCase(`${dataset.id} repair`, { dataset, agent: 'baseline' }, async ({ task, agent }) => {
    expect(await agent.run(task)).toRepairCells(task, { minPrecision: 0.5, minF1: 0.1 })
  })
}
