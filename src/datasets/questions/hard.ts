import { Random } from '../../core/random.js'
import type { Table } from '../../core/schemas.js'
import {
  conversationCase,
  expectNumber,
  expectText,
  rankStrict,
  round,
  singleCase,
  strictArgMax,
  sumBy,
  tableOf,
  turn,
  withoutTies,
} from './build.js'
import type { QaCase, QaSuiteOptions } from './types.js'

const COUNTRIES = ['Germany', 'France', 'Spain', 'Italy', 'Poland']
const SEGMENTS = ['Enterprise', 'SMB', 'Consumer']
const STATUSES = ['shipped', 'shipped', 'shipped', 'pending', 'returned']
const CATALOG: Array<[string, string, number]> = [
  ['Router', 'Hardware', 129.9],
  ['Switch', 'Hardware', 349.5],
  ['Cable', 'Hardware', 9.75],
  ['Antivirus', 'Software', 59],
  ['Backup Suite', 'Software', 199],
  ['Office Pack', 'Software', 89.99],
  ['Support Plan', 'Services', 499],
  ['Installation', 'Services', 150],
]
const FIRST = [
  'Alma',
  'Bruno',
  'Chloe',
  'Dario',
  'Elena',
  'Felix',
  'Greta',
  'Hugo',
  'Iris',
  'Jonas',
  'Klara',
  'Luca',
  'Mila',
  'Nico',
  'Olga',
]

interface Db {
  customers: Array<{ id: number; name: string; country: string; segment: string }>
  orders: Array<{ id: number; customerId: number; date: string; status: string }>
  items: Array<{ orderId: number; productId: number; quantity: number }>
  products: Array<{ id: number; name: string; category: string; price: number }>
}

function generate(seed: number, attempt: number): Db {
  const rng = new Random(seed * 104_729 + attempt)
  const customers = FIRST.map((name, i) => ({
    id: 101 + i,
    name,
    country: rng.pick(COUNTRIES),
    segment: rng.pick(SEGMENTS),
  }))
  const products = CATALOG.map(([name, category, price], i) => ({ id: 1 + i, name, category, price }))
  const orders = Array.from({ length: 40 + rng.int(0, 10) }, (_, i) => ({
    id: 9001 + i,
    customerId: rng.pick(customers).id,
    date: `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    status: rng.pick(STATUSES),
  }))
  const items = orders.flatMap((o) => {
    const chosen = rng.shuffle(products).slice(0, rng.int(1, 3))
    return chosen.map((p) => ({ orderId: o.id, productId: p.id, quantity: rng.int(1, 6) }))
  })
  return { customers, orders, items, products }
}

function tablesOf(db: Db): Record<string, Table> {
  return {
    customers: tableOf(
      ['customer_id', 'name', 'country', 'segment'],
      db.customers.map((c) => [c.id, c.name, c.country, c.segment]),
    ),
    orders: tableOf(
      ['order_id', 'customer_id', 'order_date', 'status'],
      db.orders.map((o) => [o.id, o.customerId, o.date, o.status]),
    ),
    order_items: tableOf(
      ['order_id', 'product_id', 'quantity'],
      db.items.map((it) => [it.orderId, it.productId, it.quantity]),
    ),
    products: tableOf(
      ['product_id', 'product', 'category', 'price'],
      db.products.map((p) => [p.id, p.name, p.category, p.price.toFixed(2)]),
    ),
  }
}

/**
 * Joins across 2–4 tables (customers, orders, order_items, products), three-step dependent computations,
 * and conversations of 3–4 turns where later questions reuse a result saved earlier under a name.
 * The three-table questions share one seeded database per case list.
 */
export function hardSuite(opts: QaSuiteOptions): QaCase[] {
  return withoutTies((attempt) => buildHard(generate(opts.seed, attempt)))
}

function buildHard(db: Db): QaCase[] {
  const data = tablesOf(db)
  const customer = new Map(db.customers.map((c) => [c.id, c]))
  const product = new Map(db.products.map((p) => [p.id, p]))
  const order = new Map(db.orders.map((o) => [o.id, o]))
  const lines = db.items.map((it) => {
    const o = order.get(it.orderId)!
    const c = customer.get(o.customerId)!
    const p = product.get(it.productId)!
    return { ...it, order: o, customer: c, product: p, revenue: it.quantity * p.price }
  })
  const money = { decimals: 2 }
  const segment = 'Enterprise'
  const category = 'Hardware'
  const revenueByCountry = sumBy(
    lines,
    (l) => l.customer.country,
    (l) => l.revenue,
  )
  const revenueByCustomer = sumBy(
    lines,
    (l) => l.customer.name,
    (l) => l.revenue,
  )
  const orderValue = sumBy(
    lines,
    (l) => String(l.orderId),
    (l) => l.revenue,
  )
  const shipped = db.orders.filter((o) => o.status === 'shipped')
  const shippedValues = shipped.map((o) => orderValue.get(String(o.id)) ?? 0)
  const shippedMean = shippedValues.reduce((a, b) => a + b, 0) / shippedValues.length
  const qtyByProduct = sumBy(
    lines,
    (l) => l.product.name,
    (l) => l.quantity,
  )
  const bestSeller = strictArgMax(qtyByProduct)
  const bestSellerCountries = new Set(lines.filter((l) => l.product.name === bestSeller).map((l) => l.customer.country))
  const totalRevenue = lines.reduce((s, l) => s + l.revenue, 0)
  const top5 = rankStrict(revenueByCustomer, 5).slice(0, 5)
  const top5Share = (100 * top5.reduce((s, n) => s + revenueByCustomer.get(n)!, 0)) / totalRevenue
  const country = COUNTRIES.find((c) => revenueByCountry.has(c))!
  const returned = db.orders.filter((o) => o.status === 'returned')
  const returnedIds = new Set(returned.map((o) => o.id))

  return [
    singleCase(
      'hard-join2-segment-orders',
      'join-2',
      data,
      `How many orders were placed by ${segment} customers?`,
      expectNumber(db.orders.filter((o) => customer.get(o.customerId)!.segment === segment).length),
    ),
    singleCase(
      'hard-join2-category-quantity',
      'join-2',
      data,
      `How many units of ${category} products were ordered in total?`,
      expectNumber(lines.filter((l) => l.product.category === category).reduce((s, l) => s + l.quantity, 0)),
    ),
    singleCase(
      'hard-join3-shipped-revenue',
      'join-3',
      data,
      'What is the total revenue (quantity × price) of shipped orders?',
      expectNumber(
        lines.filter((l) => l.order.status === 'shipped').reduce((s, l) => s + l.revenue, 0),
        money,
      ),
    ),
    singleCase(
      'hard-join3-country-units',
      'join-3',
      data,
      `How many units were ordered by customers from ${country}?`,
      expectNumber(lines.filter((l) => l.customer.country === country).reduce((s, l) => s + l.quantity, 0)),
    ),
    singleCase(
      'hard-join4-top-country',
      'join-4',
      data,
      'Which customer country generated the highest revenue (quantity × price)?',
      expectText(strictArgMax(revenueByCountry)),
    ),
    singleCase(
      'hard-join4-segment-category',
      'join-4',
      data,
      `What revenue did ${segment} customers generate from Software products?`,
      expectNumber(
        lines
          .filter((l) => l.customer.segment === segment && l.product.category === 'Software')
          .reduce((s, l) => s + l.revenue, 0),
        money,
      ),
    ),
    singleCase(
      'hard-join4-top-customer',
      'join-4',
      data,
      'Which customer spent the most in total?',
      expectText(strictArgMax(revenueByCustomer)),
    ),
    singleCase(
      'hard-steps-above-mean',
      'multi-step',
      data,
      'Compute the value of each shipped order, then the mean of those values; how many shipped orders are worth more than that mean?',
      expectNumber(shippedValues.filter((v) => v > shippedMean + 1e-9).length),
    ),
    singleCase(
      'hard-steps-bestseller-countries',
      'multi-step',
      data,
      'Find the product with the most units sold, then the customers who bought it; from how many distinct countries are they?',
      expectNumber(bestSellerCountries.size),
    ),
    singleCase(
      'hard-steps-top5-share',
      'multi-step',
      data,
      'Rank customers by total spend, take the top 5, and give their share of total revenue in percent (1 decimal).',
      expectNumber(round(top5Share, 1), { decimals: 1, tol: 0.051 }),
    ),
    conversationCase('hard-conv-customer-revenue', 'conversation', data, [
      turn(
        'Compute the revenue per customer and save it as cust_rev. How many customers have any revenue?',
        expectNumber(revenueByCustomer.size),
      ),
      turn(
        'Using cust_rev, what is the highest revenue of a single customer?',
        expectNumber(Math.max(...revenueByCustomer.values()), money),
      ),
      turn(
        `Using cust_rev, what is the combined revenue of the customers from ${country}?`,
        expectNumber(
          lines.filter((l) => l.customer.country === country).reduce((s, l) => s + l.revenue, 0),
          money,
        ),
      ),
    ]),
    conversationCase('hard-conv-returns', 'conversation', data, [
      turn(
        "Select the orders with status 'returned' and save them as returned. How many are there?",
        expectNumber(returned.length),
      ),
      turn(
        'Using returned, how many distinct customers do they belong to?',
        expectNumber(new Set(returned.map((o) => o.customerId)).size),
      ),
      turn(
        'Using returned, how many units were in those orders?',
        expectNumber(db.items.filter((it) => returnedIds.has(it.orderId)).reduce((s, it) => s + it.quantity, 0)),
      ),
      turn(
        'What percentage of all orders were returned (1 decimal)?',
        expectNumber(round((100 * returned.length) / db.orders.length, 1), { decimals: 1, tol: 0.051 }),
      ),
    ]),
    conversationCase('hard-conv-bestseller', 'conversation', data, [
      turn(
        'Compute the units sold per product and save it as product_qty. How many products sold at least one unit?',
        expectNumber(qtyByProduct.size),
      ),
      turn('Using product_qty, which product sold the most units?', expectText(bestSeller)),
      turn(
        'What is the list price of that product?',
        expectNumber(db.products.find((p) => p.name === bestSeller)!.price, money),
      ),
    ]),
  ]
}
