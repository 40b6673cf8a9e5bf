import { expect } from 'vitest'
import { allOf, contains, numeric } from 'dataforge-evals'
import { conversation, createMockQaAgent } from 'dataforge-evals/vitest'

// A multi-turn question eval. The scripted mock-qa oracle stands in for a real data agent here; swap in
// your own `DataAgent` (session(tables).ask(question)) to evaluate it.
const orders = [
  { order_id: 1, customer: 'Ana', amount: 120.5 },
  { order_id: 2, customer: 'Ben', amount: 80 },
  { order_id: 3, customer: 'Cara', amount: 310 },
  { order_id: 4, customer: 'Ana', amount: 42.25 },
  { order_id: 5, customer: 'Dev', amount: 15 },
]

const agent = createMockQaAgent({
  'Revenue per customer, save it as cust_rev. How many customers are there?': { value: 4, text: 'There are 4 customers.' },
  'Using cust_rev, who spent the most?': { value: 'Cara', text: 'Cara spent the most ($310.00).' },
  'What is the total revenue?': { text: 'Total revenue is $567.75.' },
  "What is Ana's home address?": { refused: true, text: "I can't answer that: the data has no addresses." },
})

conversation('shop revenue', { data: { orders }, agent, category: 'multi-turn' }, [
  ['Revenue per customer, save it as cust_rev. How many customers are there?', (a) => expect(a).toBeNumeric(4)],
  ['Using cust_rev, who spent the most?', (a) => expect(a).toContainAnswer('Cara')],
  ['What is the total revenue?', (a) => expect(a).toPass(allOf(numeric(567.75, { tol: 0.005 }), contains('revenue')))],
  ["What is Ana's home address?", (a) => expect(a).toRefuse()],
])
