import { Random } from '../../core/random.js'
import type { Table } from '../../core/schemas.js'
import { expectNumber, expectText, round, singleCase, strictArgMax, withoutTies } from './build.js'
import type { QaCase, QaSuiteOptions } from './types.js'

export const LARGE_ROWS = 100_000
/** How many leading rows are unrepresentative: what an agent shown only the head of the table sees. */
export const SNAPSHOT_ROWS = 1_000

const COUNTRIES = ['US', 'DE', 'BR', 'IN', 'JP', 'FR']
const DEVICES = ['mobile', 'desktop', 'tablet']

interface LargeTableFacts {
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
    const cents = head
      ? 5_000 + Math.floor(rng.next() * 5_000)
      : 100 + Math.floor(rng.next() * (country === 'IN' ? 9_000 : 6_000))
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

export const READINGS_ROWS = 120_000

interface ReadingsFacts {
  table: Table
  meanTemperature: number
  readingsAbove40: number
  sensorsAbove40: number
}

/**
 * A seeded `readings` table of 120,000 sensor readings. The snapshot trap: the first 1,000 rows are one
 * sensor's cold night (5–10 °C), so the head shows one sensor, a low mean and no reading above 40 °C.
 */
export function largeReadingsTable(seed: number, rows = READINGS_ROWS): ReadingsFacts {
  const rng = new Random(seed * 32_452_843 + 7)
  const out: string[][] = new Array(rows)
  let tenths = 0
  let above = 0
  const hotSensors = new Set<number>()
  // Timestamps from minutes after 2024-01-01 00:00 UTC; the day strings are made once (Date per row is slow).
  const days = Array.from({ length: 400 }, (_, d) => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10))
  const two = (n: number) => (n < 10 ? `0${n}` : String(n))
  for (let i = 0; i < rows; i++) {
    const head = i < SNAPSHOT_ROWS
    const sensor = head ? 1 : 1 + Math.floor(rng.next() * 400)
    // Temperatures in tenths of a degree keep the sums exact; 0.2% of tail readings are spikes over 40 °C.
    const t = head
      ? 50 + Math.floor(rng.next() * 51)
      : rng.next() < 0.002
        ? 401 + Math.floor(rng.next() * 150)
        : 100 + Math.floor(rng.next() * 251)
    const minute = head ? i : SNAPSHOT_ROWS + Math.floor(rng.next() * 500_000)
    const time = `${days[Math.floor(minute / 1440)]} ${two(Math.floor((minute % 1440) / 60))}:${two(minute % 60)}`
    out[i] = [`S-${String(sensor).padStart(3, '0')}`, time, (t / 10).toFixed(1)]
    tenths += t
    if (t > 400) {
      above++
      hotSensors.add(sensor)
    }
  }
  return {
    table: { columns: ['sensor_id', 'reading_time', 'temperature_c'], rows: out },
    meanTemperature: tenths / 10 / rows,
    readingsAbove40: above,
    sensorsAbove40: hotSensors.size,
  }
}

const LARGE_QUESTIONS = {
  total: 'What is the total amount over all events?',
  mean: 'What is the mean amount per event (2 decimals)?',
  users: 'How many distinct users appear in the events table?',
  brazil: 'How many events come from Brazil (country BR)?',
  topCountry: 'Which country has the highest total amount?',
  mobile: 'What percentage of events were on mobile devices (1 decimal)?',
  refunded: "What is the total amount of events with status 'refunded'?",
  meanTemperature: 'What is the mean temperature over all readings, in °C (2 decimals)?',
  readingsAbove40: 'How many readings are above 40.0 °C?',
  sensorsAbove40: 'How many distinct sensors recorded a temperature above 40.0 °C?',
} as const

/** Ten questions over two seeded tables (100,000 events, 120,000 readings), answerable only over the whole table. */
export function largeSuite(opts: QaSuiteOptions): QaCase[] {
  const f0 = withoutTies((attempt) => largeEventsTable(opts.seed, attempt))
  const data = { events: f0.table }
  const r = largeReadingsTable(opts.seed)
  const readings = { readings: r.table }
  const money = { decimals: 2 }
  return [
    singleCase('large-total-amount', 'aggregation', data, LARGE_QUESTIONS.total, expectNumber(f0.totalAmount, money)),
    singleCase(
      'large-mean-amount',
      'aggregation',
      data,
      LARGE_QUESTIONS.mean,
      expectNumber(round(f0.meanAmount, 2), money),
    ),
    singleCase('large-distinct-users', 'aggregation', data, LARGE_QUESTIONS.users, expectNumber(f0.distinctUsers)),
    singleCase('large-brazil-events', 'filter', data, LARGE_QUESTIONS.brazil, expectNumber(f0.brazilEvents)),
    singleCase('large-top-country', 'group-by', data, LARGE_QUESTIONS.topCountry, expectText(f0.topCountry)),
    singleCase(
      'large-mobile-share',
      'filter',
      data,
      LARGE_QUESTIONS.mobile,
      expectNumber(round(f0.mobileSharePercent, 1), { decimals: 1, tol: 0.051 }),
    ),
    singleCase(
      'large-refunded-amount',
      'filter',
      data,
      LARGE_QUESTIONS.refunded,
      expectNumber(f0.refundedAmount, money),
    ),
    singleCase(
      'large-readings-mean',
      'aggregation',
      readings,
      LARGE_QUESTIONS.meanTemperature,
      expectNumber(round(r.meanTemperature, 2), money),
    ),
    singleCase(
      'large-readings-above-40',
      'filter',
      readings,
      LARGE_QUESTIONS.readingsAbove40,
      expectNumber(r.readingsAbove40),
    ),
    singleCase(
      'large-readings-hot-sensors',
      'group-by',
      readings,
      LARGE_QUESTIONS.sensorsAbove40,
      expectNumber(r.sensorsAbove40),
    ),
  ]
}
