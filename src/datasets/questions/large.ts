import { Random } from '../../core/random.js'
import type { Table } from '../../core/schemas.js'
import { expectNumber, expectText, round, singleCase, strictArgMax, withoutTies } from './build.js'
import type { QaCase, QaSuiteOptions } from './types.js'

export const LARGE_ROWS = 100_000
/** How many leading rows are unrepresentative: what an agent shown only the head of the table sees. */
export const SNAPSHOT_ROWS = 1_000

const COUNTRIES = ['US', 'DE', 'BR', 'IN', 'JP', 'FR']
const DEVICES = ['mobile', 'desktop', 'tablet']

export interface LargeTableFacts {
  table: Table
  totalAmount: number
  meanAmount: number
  distinctUsers: number
  brazilEvents: number
  topCountry: string
  mobileSharePercent: number
  refundedAmount: number
}

/**
 * A seeded `events` table of 100,000 rows, built in memory with its facts computed in the same pass.
 * The snapshot trap: the first 1,000 rows are all large US desktop purchases by a handful of users, so
 * anything computed from the head (mean amount, top country, Brazil count, mobile share) is wrong.
 */
export function largeEventsTable(seed: number, attempt = 0, rows = LARGE_ROWS): LargeTableFacts {
  const rng = new Random(seed * 15_485_863 + attempt)
  const out: string[][] = new Array(rows)
  let total = 0
  let brazil = 0
  let mobile = 0
  let refunded = 0
  const users = new Set<number>()
  const byCountry = new Map<string, number>()
  for (let i = 0; i < rows; i++) {
    const head = i < SNAPSHOT_ROWS
    const country = head ? 'US' : COUNTRIES[Math.floor(rng.next() * COUNTRIES.length)]!
    const device = head ? 'desktop' : DEVICES[Math.floor(rng.next() * DEVICES.length)]!
    const user = head ? 1 + (i % 7) : 1 + Math.floor(rng.next() * 40_000)
    // Cents as integers keep the sums exact; head rows are big-ticket purchases.
    const cents = head ? 5_000 + Math.floor(rng.next() * 5_000) : 100 + Math.floor(rng.next() * (country === 'IN' ? 9_000 : 6_000))
    const status = head ? 'paid' : rng.next() < 0.05 ? 'refunded' : 'paid'
    out[i] = [String(i + 1), String(user), country, device, (cents / 100).toFixed(2), status]
    total += cents
    users.add(user)
    byCountry.set(country, (byCountry.get(country) ?? 0) + cents)
    if (country === 'BR') brazil++
    if (device === 'mobile') mobile++
    if (status === 'refunded') refunded += cents
  }
  return {
    table: { columns: ['event_id', 'user_id', 'country', 'device', 'amount', 'status'], rows: out },
    totalAmount: total / 100,
    meanAmount: total / 100 / rows,
    distinctUsers: users.size,
    brazilEvents: brazil,
    topCountry: strictArgMax(byCountry),
    mobileSharePercent: (100 * mobile) / rows,
    refundedAmount: refunded / 100,
  }
}

export const LARGE_QUESTIONS = {
  total: 'What is the total amount over all events?',
  mean: 'What is the mean amount per event (2 decimals)?',
  users: 'How many distinct users appear in the events table?',
  brazil: 'How many events come from Brazil (country BR)?',
  topCountry: 'Which country has the highest total amount?',
  mobile: 'What percentage of events were on mobile devices (1 decimal)?',
  refunded: "What is the total amount of events with status 'refunded'?",
} as const

/** Seven questions that can only be answered by computing over the whole 100,000-row table (one table, shared). */
export function largeSuite(opts: QaSuiteOptions): QaCase[] {
  const f0 = withoutTies((attempt) => largeEventsTable(opts.seed, attempt))
  const data = { events: f0.table }
  const money = { decimals: 2 }
  return [
    singleCase('large-total-amount', 'aggregation', data, LARGE_QUESTIONS.total, expectNumber(f0.totalAmount, money)),
    singleCase('large-mean-amount', 'aggregation', data, LARGE_QUESTIONS.mean, expectNumber(round(f0.meanAmount, 2), money)),
    singleCase('large-distinct-users', 'aggregation', data, LARGE_QUESTIONS.users, expectNumber(f0.distinctUsers)),
    singleCase('large-brazil-events', 'filter', data, LARGE_QUESTIONS.brazil, expectNumber(f0.brazilEvents)),
    singleCase('large-top-country', 'group-by', data, LARGE_QUESTIONS.topCountry, expectText(f0.topCountry)),
    singleCase('large-mobile-share', 'filter', data, LARGE_QUESTIONS.mobile, expectNumber(round(f0.mobileSharePercent, 1), { decimals: 1, tol: 0.051 })),
    singleCase('large-refunded-amount', 'filter', data, LARGE_QUESTIONS.refunded, expectNumber(f0.refundedAmount, money)),
  ]
}
