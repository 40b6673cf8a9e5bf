import type { Random } from '../../core/random.js'
import type { Table } from '../../core/schemas.js'
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, LOCATIONS, PLANS } from './vocabulary.js'

export const SYNTHETIC_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'zip',
  'city',
  'state',
  'signup_date',
  'plan',
  'monthly_fee',
  'score',
] as const
export type SyntheticColumn = (typeof SYNTHETIC_COLUMNS)[number]

const FIRST_SIGNUP_DAY = Date.UTC(2018, 0, 1)
const SIGNUP_DAYS = 7 * 365 + 2 // 2018-01-01 … 2024-12-31
const DAY_MS = 86_400_000

let isoDates: string[] | undefined
/** Every signup date as YYYY-MM-DD, built once: indexing beats formatting a Date per row. */
function signupDates(): string[] {
  isoDates ??= Array.from({ length: SIGNUP_DAYS }, (_, i) =>
    new Date(FIRST_SIGNUP_DAY + i * DAY_MS).toISOString().slice(0, 10),
  )
  return isoDates
}

const PLAN_CUMULATIVE = (() => {
  let sum = 0
  return PLANS.map((p) => (sum += p.weight))
})()

function pickPlanIndex(rng: Random): number {
  const u = rng.next() * PLAN_CUMULATIVE[PLAN_CUMULATIVE.length - 1]!
  let i = 0
  while (u >= PLAN_CUMULATIVE[i]!) i++
  return i
}

interface Pools {
  names: string[]
  /** `first.last` for each entry of `names`, lower case. */
  emailLocals: string[]
  /** `first.last@domain` for each name × domain, so most rows reuse a string instead of building one. */
  emails: string[]
  scores: string[]
  /** `AAA-EEE-` for each location × exchange 200–999, indexed location * 800 + (exchange - 200). */
  phonePrefixes: string[]
  /** `0000` … `9999`. */
  lineNumbers: string[]
}

let pools: Pools | undefined
/** Interned strings: a million-row table then holds mostly shared strings, which keeps the GC quiet. */
function stringPools(): Pools {
  if (pools) return pools
  const names: string[] = []
  const emailLocals: string[] = []
  for (const first of FIRST_NAMES) {
    for (const last of LAST_NAMES) {
      names.push(`${first} ${last}`)
      emailLocals.push(`${first.toLowerCase()}.${last.toLowerCase()}`)
    }
  }
  const emails = emailLocals.flatMap((local) => EMAIL_DOMAINS.map((domain) => `${local}@${domain}`))
  const scores = Array.from({ length: 1001 }, (_, i) => (i / 10).toFixed(1))
  const phonePrefixes = LOCATIONS.flatMap((l) => Array.from({ length: 800 }, (_, e) => `${l.areaCode}-${200 + e}-`))
  const lineNumbers = Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0'))
  pools = { names, emailLocals, emails, scores, phonePrefixes, lineNumbers }
  return pools
}

/**
 * A realistic customer table: repeated categories, consistent formats per column and functional
 * dependencies (zip → city → state, city → phone area code, plan → monthly_fee, name → email).
 */
export function generateCleanTable(rng: Random, rows: number): Table {
  const dates = signupDates()
  const { names, emailLocals, emails, scores, phonePrefixes, lineNumbers } = stringPools()
  const domains = EMAIL_DOMAINS.length
  const out: string[][] = []
  for (let r = 0; r < rows; r++) {
    const person = Math.floor(rng.next() * names.length)
    const domain = Math.floor(rng.next() * domains)
    const email =
      rng.next() < 0.3
        ? `${emailLocals[person]}${1 + Math.floor(rng.next() * 99)}@${EMAIL_DOMAINS[domain]}`
        : emails[person * domains + domain]!
    const locationIndex = Math.floor(rng.next() * LOCATIONS.length)
    const location = LOCATIONS[locationIndex]!
    const exchange = Math.floor(rng.next() * 800)
    // 12 characters: short enough that V8 stores the concatenation flat rather than as a rope.
    const phone = phonePrefixes[locationIndex * 800 + exchange]! + lineNumbers[Math.floor(rng.next() * 10_000)]!
    const plan = PLANS[pickPlanIndex(rng)]!
    // Mean of two uniforms: scores cluster around the middle like real ratings.
    const score = scores[Math.round((rng.next() + rng.next()) * 500)]!
    out.push([
      String(r + 1),
      names[person]!,
      email,
      phone,
      location.zips[Math.floor(rng.next() * location.zips.length)]!,
      location.city,
      location.state,
      dates[Math.floor(rng.next() * dates.length)]!,
      plan.name,
      plan.fee,
      score,
    ])
  }
  return { columns: [...SYNTHETIC_COLUMNS], rows: out }
}
