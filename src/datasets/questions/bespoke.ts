import { Random } from '../../core/random.js'
import {
  expectChart,
  expectList,
  expectNumber,
  expectRefusal,
  expectTable,
  expectText,
  rankStrict,
  round,
  singleCase,
  strictArgMax,
  sumBy,
  tableOf,
  withoutTies,
} from './build.js'
import type { QaCase, QaSuiteOptions } from './types.js'

const REGIONS = ['North', 'South', 'East', 'West']
const PRODUCTS: Array<{ product: string; category: string; price: [number, number] }> = [
  { product: 'Laptop', category: 'Electronics', price: [700, 1400] },
  { product: 'Monitor', category: 'Electronics', price: [150, 400] },
  { product: 'Headphones', category: 'Electronics', price: [40, 200] },
  { product: 'Desk', category: 'Furniture', price: [150, 500] },
  { product: 'Chair', category: 'Furniture', price: [60, 250] },
  { product: 'Paper', category: 'Office', price: [3, 12] },
  { product: 'Pens', category: 'Office', price: [2, 9] },
]
const CUSTOMERS = ['Ana', 'Ben', 'Cara', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jae']
const MONTHS = ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06']

interface Order {
  id: number
  month: string
  day: number
  region: string
  customer: string
  product: string
  category: string
  units: number
  unitPrice: number
  revenue: number
}

function generateOrders(seed: number, attempt: number): Order[] {
  const rng = new Random(seed * 7919 + attempt)
  const n = 60 + rng.int(0, 20)
  return Array.from({ length: n }, (_, i) => {
    const p = rng.pick(PRODUCTS)
    const units = rng.int(1, 12)
    const unitPrice = round(p.price[0] + rng.next() * (p.price[1] - p.price[0]), 2)
    return {
      id: 5001 + i,
      month: rng.pick(MONTHS),
      day: rng.int(1, 28),
      region: rng.pick(REGIONS),
      customer: rng.pick(CUSTOMERS),
      product: p.product,
      category: p.category,
      units,
      unitPrice,
      revenue: round(units * unitPrice, 2),
    }
  })
}

/**
 * Single-shot questions over one seeded `orders` table (60–80 rows): aggregation, filters, group-by,
 * ranking, charts (valid Vega-Lite with the right mark and fields) and refusals for what the data lacks.
 */
export function bespokeSuite(opts: QaSuiteOptions): QaCase[] {
  return withoutTies((attempt) => buildBespoke(generateOrders(opts.seed, attempt)))
}

function buildBespoke(orders: Order[]): QaCase[] {
  const table = tableOf(
    ['order_id', 'order_date', 'region', 'customer', 'product', 'category', 'units', 'unit_price', 'revenue'],
    orders.map((o) => [
      o.id,
      `${o.month}-${String(o.day).padStart(2, '0')}`,
      o.region,
      o.customer,
      o.product,
      o.category,
      o.units,
      o.unitPrice.toFixed(2),
      o.revenue.toFixed(2),
    ]),
  )
  const data = { orders: table }
  const total = orders.reduce((s, o) => s + o.revenue, 0)
  const byRegion = sumBy(
    orders,
    (o) => o.region,
    (o) => o.revenue,
  )
  const byCustomer = sumBy(
    orders,
    (o) => o.customer,
    (o) => o.revenue,
  )
  const byCategory = sumBy(
    orders,
    (o) => o.category,
    (o) => o.revenue,
  )
  const unitsByProduct = sumBy(
    orders,
    (o) => o.product,
    (o) => o.units,
  )
  const byMonth = sumBy(
    orders,
    (o) => o.month,
    (o) => o.revenue,
  )
  const region = REGIONS.find((r) => byRegion.has(r))!
  const bigUnits = 8
  const month = MONTHS[2]!
  const product = 'Laptop'
  const topRegion = strictArgMax(byRegion)
  const rankedCustomers = rankStrict(byCustomer, 2)
  const top3Products = rankStrict(unitsByProduct, 3).slice(0, 3)
  const sortedUnits = orders.map((o) => o.units).sort((a, b) => a - b)
  const median =
    sortedUnits.length % 2
      ? sortedUnits[(sortedUnits.length - 1) / 2]!
      : (sortedUnits[sortedUnits.length / 2 - 1]! + sortedUnits[sortedUnits.length / 2]!) / 2
  const money = { decimals: 2 }
  const regionValues = [...byRegion].sort().map(([r, v]) => ({ region: r, revenue: round(v, 2) }))
  const monthValues = [...byMonth].sort().map(([m, v]) => ({ month: m, revenue: round(v, 2) }))

  return [
    singleCase(
      'bespoke-total-revenue',
      'aggregation',
      data,
      'What is the total revenue of all orders?',
      expectNumber(total, money),
    ),
    singleCase('bespoke-order-count', 'aggregation', data, 'How many orders are there?', expectNumber(orders.length)),
    singleCase(
      'bespoke-mean-unit-price',
      'aggregation',
      data,
      'What is the average unit price over all orders, rounded to 2 decimals?',
      expectNumber(orders.reduce((s, o) => s + o.unitPrice, 0) / orders.length, money),
    ),
    singleCase(
      'bespoke-median-units',
      'aggregation',
      data,
      'What is the median number of units per order?',
      expectNumber(median),
    ),
    singleCase(
      'bespoke-filter-region-count',
      'filter',
      data,
      `How many orders came from the ${region} region?`,
      expectNumber(orders.filter((o) => o.region === region).length),
    ),
    singleCase(
      'bespoke-filter-big-orders',
      'filter',
      data,
      `How many orders have more than ${bigUnits} units?`,
      expectNumber(orders.filter((o) => o.units > bigUnits).length),
    ),
    singleCase(
      'bespoke-filter-product-month',
      'filter',
      data,
      `What was the total revenue from ${product} orders placed in ${month}?`,
      expectNumber(
        orders.filter((o) => o.product === product && o.month === month).reduce((s, o) => s + o.revenue, 0),
        money,
      ),
    ),
    singleCase(
      'bespoke-groupby-top-region',
      'group-by',
      data,
      'Which region has the highest total revenue?',
      expectText(topRegion),
    ),
    singleCase(
      'bespoke-groupby-category-table',
      'group-by',
      data,
      'Give total revenue per category as a table with columns category and revenue.',
      expectTable(
        tableOf(
          ['category', 'revenue'],
          [...byCategory].sort().map(([c, v]) => [c, round(v, 2).toFixed(2)]),
        ),
        { tol: 0.005 },
      ),
    ),
    singleCase(
      'bespoke-groupby-distinct-customers',
      'group-by',
      data,
      'How many distinct customers placed orders?',
      expectNumber(byCustomer.size),
    ),
    singleCase(
      'bespoke-rank-second-customer',
      'ranking',
      data,
      'Which customer has the second-highest total revenue?',
      expectText(rankedCustomers[1]!),
    ),
    singleCase(
      'bespoke-rank-top3-products',
      'ranking',
      data,
      'List the top 3 products by total units sold, highest first.',
      expectList(top3Products),
    ),
    singleCase(
      'bespoke-rank-smallest-order',
      'ranking',
      data,
      'What is the revenue of the smallest order?',
      expectNumber(Math.min(...orders.map((o) => o.revenue)), money),
    ),
    singleCase(
      'bespoke-chart-region-bar',
      'chart',
      data,
      'Make a bar chart of total revenue by region (Vega-Lite; fields region and revenue).',
      expectChart({ mark: 'bar', x: 'region', y: 'revenue', values: regionValues }),
    ),
    singleCase(
      'bespoke-chart-month-line',
      'chart',
      data,
      'Make a line chart of total revenue by month (Vega-Lite; fields month and revenue).',
      expectChart({ mark: 'line', x: 'month', y: 'revenue', values: monthValues }),
    ),
    singleCase(
      'bespoke-refuse-email',
      'refusal',
      data,
      "What is Ana's email address?",
      expectRefusal('the table has no email addresses'),
    ),
    singleCase(
      'bespoke-refuse-profit',
      'refusal',
      data,
      'What was the total profit margin on Laptops?',
      expectRefusal('the table has no costs, so profit cannot be computed'),
    ),
  ]
}
