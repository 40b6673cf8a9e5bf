import { Random } from '../../core/random.js'
import { expectNumber, expectText, singleCase, strictArgMax, sumBy, tableOf } from './build.js'
import { cleanSales } from './messy-cleaner.js'
import type { QaCase, QaSuiteOptions } from './types.js'

export const MESSY_CATEGORIES = ['Electronics', 'Furniture', 'Office Supplies'] as const

/**
 * The clean records behind the messy table. The seed only changes how they are written (formats, labels,
 * missing-value tokens, duplicates, order), never what they mean, so the expected answers are the same for
 * every seed and can be worked out by hand (see the messy suite test).
 */
export const MESSY_RECORDS: ReadonlyArray<{
  id: number
  date: string
  customer: string
  category: (typeof MESSY_CATEGORIES)[number]
  amount: number | null
}> = [
  { id: 1001, date: '2024-01-05', customer: 'Ana', category: 'Electronics', amount: 1200 },
  { id: 1002, date: '2024-01-17', customer: 'Ben', category: 'Furniture', amount: 350.5 },
  { id: 1003, date: '2024-02-02', customer: 'Cara', category: 'Office Supplies', amount: 45.25 },
  { id: 1004, date: '2024-02-14', customer: 'Ana', category: 'Electronics', amount: 899.99 },
  { id: 1005, date: '2024-02-28', customer: 'Dev', category: 'Furniture', amount: null },
  { id: 1006, date: '2024-03-03', customer: 'Eli', category: 'Office Supplies', amount: 12.75 },
  { id: 1007, date: '2024-03-09', customer: 'Ben', category: 'Electronics', amount: 2150 },
  { id: 1008, date: '2024-03-21', customer: 'Fay', category: 'Furniture', amount: 780 },
  { id: 1009, date: '2024-03-30', customer: 'Cara', category: 'Electronics', amount: null },
  { id: 1010, date: '2024-04-04', customer: 'Dev', category: 'Office Supplies', amount: 64 },
  { id: 1011, date: '2024-04-12', customer: 'Eli', category: 'Furniture', amount: 1025 },
  { id: 1012, date: '2024-04-25', customer: 'Ana', category: 'Office Supplies', amount: 8.5 },
]
const MESSY_DUPLICATES = 3

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const MISSING = ['', 'N/A', 'null', '-', 'n/a']

function writeAmount(rng: Random, amount: number | null): string {
  if (amount === null) return rng.pick(MISSING)
  const grouped = amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  const formats = [
    `$${grouped}`,
    String(amount),
    `USD ${grouped}`,
    `${grouped} USD`,
    `$${amount.toFixed(2)}`,
    `€${grouped}`,
  ]
  return rng.pick(formats)
}

function writeDate(rng: Random, iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number]
  const month = MONTH_NAMES[m - 1]!
  const formats = [
    iso,
    `${y}/${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}`,
    `${month.slice(0, 3)} ${d}, ${y}`,
    `${d} ${month} ${y}`,
  ]
  // Slash dates in US order only where the day cannot be read as a month.
  if (d > 12) formats.push(`${String(m).padStart(2, '0')}/${d}/${y}`)
  return rng.pick(formats)
}

function writeCategory(rng: Random, label: string): string {
  const variants = [
    label,
    label.toLowerCase(),
    label.toUpperCase(),
    ` ${label} `,
    label.replace(/ /g, '-').toLowerCase(),
    `${label}  `,
  ]
  if (label.endsWith('ies')) variants.push(label.replace(/ies$/, 'y'))
  return rng.pick(variants)
}

/** The messy `sales` table for a seed. */
export function messySalesTable(seed: number) {
  const rng = new Random(seed * 2_750_159)
  const rows = MESSY_RECORDS.map((r) => [
    String(r.id),
    writeDate(rng, r.date),
    r.customer,
    writeCategory(rng, r.category),
    writeAmount(rng, r.amount),
  ])
  const duplicated = rng
    .shuffle(rows)
    .slice(0, MESSY_DUPLICATES)
    .map((r) => [...r])
  return tableOf(['order_id', 'date', 'customer', 'category', 'amount'], rng.shuffle([...rows, ...duplicated]))
}

/**
 * Questions over a messy `sales` table: currency strings, thousands separators, mixed date formats,
 * inconsistent category labels, missing values and duplicated rows. Every expected answer comes from
 * `cleanSales`, the reference cleaner.
 */
export function messySuite(opts: QaSuiteOptions): QaCase[] {
  const table = messySalesTable(opts.seed)
  const data = { sales: table }
  const { sales, duplicatesRemoved } = cleanSales(table, MESSY_CATEGORIES)
  const priced = sales.filter((s) => s.amount !== null)
  const sum = (xs: typeof sales) => xs.reduce((s, x) => s + (x.amount ?? 0), 0)
  const money = { decimals: 2 }
  const inMonth = (m: string) => sales.filter((s) => s.date.startsWith(m))
  const note = ' Count each order once and skip missing amounts.'
  return [
    singleCase(
      'messy-total-amount',
      'currency',
      data,
      `What is the total sales amount?${note}`,
      expectNumber(sum(sales), money),
    ),
    singleCase(
      'messy-unique-orders',
      'duplicates',
      data,
      'How many distinct orders are in the table?',
      expectNumber(sales.length),
    ),
    singleCase(
      'messy-duplicate-rows',
      'duplicates',
      data,
      'How many rows are exact duplicates of an earlier row?',
      expectNumber(duplicatesRemoved),
    ),
    singleCase(
      'messy-missing-amounts',
      'missing',
      data,
      'How many distinct orders have no amount recorded?',
      expectNumber(sales.length - priced.length),
    ),
    singleCase(
      'messy-mean-amount',
      'missing',
      data,
      `What is the average order amount (2 decimals)?${note}`,
      expectNumber(sum(priced) / priced.length, money),
    ),
    singleCase(
      'messy-largest-order',
      'currency',
      data,
      'What is the largest single order amount?',
      expectNumber(Math.max(...priced.map((s) => s.amount!)), money),
    ),
    singleCase(
      'messy-electronics-total',
      'labels',
      data,
      `What is the total amount for the Electronics category?${note}`,
      expectNumber(sum(sales.filter((s) => s.category === 'Electronics')), money),
    ),
    singleCase(
      'messy-distinct-categories',
      'labels',
      data,
      'How many distinct product categories are there?',
      expectNumber(new Set(sales.map((s) => s.category)).size),
    ),
    singleCase(
      'messy-top-category',
      'labels',
      data,
      'Which category has the highest total amount?',
      expectText(
        strictArgMax(
          sumBy(
            priced,
            (s) => s.category,
            (s) => s.amount!,
          ),
        ),
      ),
    ),
    singleCase(
      'messy-march-orders',
      'dates',
      data,
      'How many distinct orders were placed in March 2024?',
      expectNumber(inMonth('2024-03').length),
    ),
    singleCase(
      'messy-march-amount',
      'dates',
      data,
      `What is the total amount of orders placed in March 2024?${note}`,
      expectNumber(sum(inMonth('2024-03')), money),
    ),
    singleCase(
      'messy-q1-amount',
      'dates',
      data,
      `What is the total amount for the first quarter of 2024 (January to March)?${note}`,
      expectNumber(sum([...inMonth('2024-01'), ...inMonth('2024-02'), ...inMonth('2024-03')]), money),
    ),
    singleCase(
      'messy-top-customer',
      'labels',
      data,
      'Which customer has the highest total amount?',
      expectText(
        strictArgMax(
          sumBy(
            priced,
            (s) => s.customer,
            (s) => s.amount!,
          ),
        ),
      ),
    ),
  ]
}
