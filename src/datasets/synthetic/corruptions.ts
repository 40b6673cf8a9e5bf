import type { Random } from '../../core/random.js'
import type { SyntheticColumn } from './clean-table.js'
import { LOCATIONS, MONTH_ABBREVIATIONS, PLANS } from './vocabulary.js'

export const CORRUPTION_KINDS = [
  'typo',
  'abbreviation',
  'null_placeholder',
  'format_drift',
  'decimal_shift',
  'case_whitespace',
  'transposition',
  'fd_violation',
] as const
export type CorruptionKind = (typeof CORRUPTION_KINDS)[number]

export const NULL_PLACEHOLDERS = ['', 'N/A', 'not available', 'NULL', '-'] as const

/** Returns the corrupted value, or undefined where the kind does not apply to this value. */
type Corruptor = (value: string, column: SyntheticColumn, rng: Random) => string | undefined

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  q: 'wa',
  w: 'qes',
  e: 'wrd',
  r: 'etf',
  t: 'ryg',
  y: 'tuh',
  u: 'yij',
  i: 'uok',
  o: 'ipl',
  p: 'ol',
  a: 'qsz',
  s: 'awdz',
  d: 'sefx',
  f: 'drgc',
  g: 'fthv',
  h: 'gyjb',
  j: 'hukn',
  k: 'jilm',
  l: 'kop',
  z: 'asx',
  x: 'zsdc',
  c: 'xdfv',
  v: 'cfgb',
  b: 'vghn',
  n: 'bhjm',
  m: 'njk',
}

function isLetter(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9'
}

function positionsWhere(value: string, test: (ch: string) => boolean): number[] {
  const out: number[] = []
  for (let i = 0; i < value.length; i++) if (test(value[i]!)) out.push(i)
  return out
}

function replaceAt(value: string, i: number, text: string): string {
  return value.slice(0, i) + text + value.slice(i + 1)
}

/** A slip of the finger: a neighbouring key, a dropped or a doubled character. */
const typo: Corruptor = (value, _column, rng) => {
  const positions = positionsWhere(value, (ch) => isLetter(ch) || isDigit(ch))
  if (positions.length === 0) return undefined
  const i = rng.pick(positions)
  const ch = value[i]!
  const mode = rng.int(0, 2)
  if (mode === 1 && value.length > 3) return value.slice(0, i) + value.slice(i + 1)
  if (mode === 2) return value.slice(0, i) + ch + value.slice(i)
  if (isDigit(ch)) return replaceAt(value, i, String((Number(ch) + rng.int(1, 9)) % 10))
  const neighbour = rng.pick([...KEYBOARD_NEIGHBOURS[ch.toLowerCase()]!])
  return replaceAt(value, i, ch === ch.toUpperCase() ? neighbour.toUpperCase() : neighbour)
}

function truncate(value: string, rng: Random): string | undefined {
  if (value.length < 5) return undefined
  const keep = rng.int(Math.ceil(value.length / 2), value.length - 2)
  return value.slice(0, keep).trimEnd() + (rng.chance(0.5) ? '.' : '')
}

/** Shortened forms: initials for names and multi-word cities, prefixes elsewhere. */
const abbreviation: Corruptor = (value, column, rng) => {
  const words = value.split(' ')
  if ((column === 'name' || column === 'city') && words.length > 1) {
    const w = rng.int(0, words.length - 2)
    if (words[w]!.length > 2) {
      words[w] = `${words[w]![0]}.`
      return words.join(' ')
    }
  }
  if (column === 'state' || column === 'zip' || column === 'phone' || column === 'signup_date') return undefined
  return truncate(value, rng)
}

const nullPlaceholder: Corruptor = (_value, _column, rng) => rng.pick(NULL_PLACEHOLDERS)

function driftDate(value: string, rng: Random): string | undefined {
  const [y, m, d] = value.split('-')
  if (!y || !m || !d) return undefined
  switch (rng.int(0, 4)) {
    case 0:
      return `${m}/${d}/${y}`
    case 1:
      return `${d}.${m}.${y}`
    case 2:
      return `${MONTH_ABBREVIATIONS[Number(m) - 1]} ${Number(d)}, ${y}`
    case 3:
      return `${y}/${m}/${d}`
    default:
      return `${y}${m}${d}`
  }
}

function driftPhone(value: string, rng: Random): string | undefined {
  const digits = value.replace(/\D/g, '')
  if (digits.length !== 10) return undefined
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)]
  return rng.pick([`(${a}) ${b}-${c}`, `${a}.${b}.${c}`, digits, `+1 ${a} ${b} ${c}`, `${a} ${b} ${c}`])
}

/** The same value written the way another system would write it. */
const formatDrift: Corruptor = (value, column, rng) => {
  switch (column) {
    case 'signup_date':
      return driftDate(value, rng)
    case 'phone':
      return driftPhone(value, rng)
    case 'zip':
      // A zip read as a number: leading zeros lost, or a float suffix.
      return value.startsWith('0') && rng.chance(0.7) ? value.replace(/^0+/, '') : `${value}.0`
    case 'state':
      return LOCATIONS.find((l) => l.state === value)?.stateName
    case 'monthly_fee':
      return rng.pick([`$${value}`, `${value} USD`, value.replace('.', ',')])
    case 'score':
      return rng.chance(0.5) ? `${value}0` : value.replace('.', ',')
    default:
      return undefined
  }
}

/** The decimal point moved one place left or right (a unit or parsing slip). */
const decimalShift: Corruptor = (value, column, rng) => {
  if (column !== 'monthly_fee' && column !== 'score') return undefined
  const dot = value.indexOf('.')
  const digits = value.replace('.', '')
  const point = (dot === -1 ? value.length : dot) + (rng.chance(0.5) ? 1 : -1)
  if (point < 0 || point > digits.length) return undefined
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0'
  const fraction = digits.slice(point)
  return fraction ? `${whole}.${fraction}` : whole
}

/** Shouting, lower-casing or stray spaces. */
const caseWhitespace: Corruptor = (value, _column, rng) => {
  const options = [value.toUpperCase(), value.toLowerCase(), ` ${value}`, `${value} `, value.replace(' ', '  ')].filter(
    (v) => v !== value,
  )
  return options.length === 0 ? undefined : rng.pick(options)
}

/** Two neighbouring characters swapped. */
const transposition: Corruptor = (value, _column, rng) => {
  const positions = positionsWhere(value.slice(0, -1), () => true).filter((i) => value[i] !== value[i + 1])
  if (positions.length === 0) return undefined
  const i = rng.pick(positions)
  return value.slice(0, i) + value[i + 1] + value[i] + value.slice(i + 2)
}

const FD_DOMAINS: Partial<Record<SyntheticColumn, readonly string[]>> = {
  city: [...new Set(LOCATIONS.map((l) => l.city))],
  state: [...new Set(LOCATIONS.map((l) => l.state))],
  plan: PLANS.map((p) => p.name),
  monthly_fee: PLANS.map((p) => p.fee),
}

/** A valid value from the column's domain that breaks a functional dependency of its row. */
const fdViolation: Corruptor = (value, column, rng) => {
  const domain = FD_DOMAINS[column]
  if (!domain) return undefined
  // Draw until the value differs; the domains hold several distinct values.
  for (;;) {
    const other = rng.pick(domain)
    if (other !== value) return other
  }
}

const CORRUPTORS: Readonly<Record<CorruptionKind, Corruptor>> = {
  typo,
  abbreviation,
  null_placeholder: nullPlaceholder,
  format_drift: formatDrift,
  decimal_shift: decimalShift,
  case_whitespace: caseWhitespace,
  transposition,
  fd_violation: fdViolation,
}

/**
 * Which kinds hit which column, with weights: the mix a column tends to suffer in real data.
 * fd_violation only hits columns a dependency can restore (zip → city → state, plan ↔ monthly_fee);
 * a wrong zip could not be told from the city's other zips, so zips never get one.
 */
const COLUMN_KIND_WEIGHTS: Readonly<Record<Exclude<SyntheticColumn, 'id'>, Partial<Record<CorruptionKind, number>>>> = {
  name: { typo: 3, abbreviation: 2, null_placeholder: 1, case_whitespace: 2, transposition: 2 },
  email: { typo: 3, abbreviation: 1, null_placeholder: 1, case_whitespace: 2, transposition: 2 },
  phone: { format_drift: 4, typo: 2, null_placeholder: 1, transposition: 2, case_whitespace: 1 },
  zip: { typo: 2, transposition: 2, format_drift: 2, null_placeholder: 1, case_whitespace: 1 },
  city: { typo: 3, abbreviation: 2, null_placeholder: 1, case_whitespace: 2, transposition: 1, fd_violation: 2 },
  state: { case_whitespace: 3, format_drift: 2, null_placeholder: 1, typo: 1, fd_violation: 2 },
  signup_date: { format_drift: 5, typo: 1, transposition: 1, null_placeholder: 1 },
  plan: { typo: 2, abbreviation: 2, case_whitespace: 2, null_placeholder: 1, transposition: 1, fd_violation: 1 },
  monthly_fee: { decimal_shift: 4, format_drift: 2, typo: 1, null_placeholder: 1, fd_violation: 1 },
  score: { decimal_shift: 4, format_drift: 1, typo: 2, transposition: 1, null_placeholder: 1, case_whitespace: 1 },
}

interface WeightedKinds {
  kinds: CorruptionKind[]
  cumulative: number[]
}

const WEIGHTED: Record<string, WeightedKinds> = Object.fromEntries(
  Object.entries(COLUMN_KIND_WEIGHTS).map(([column, weights]) => {
    const kinds = Object.keys(weights) as CorruptionKind[]
    let sum = 0
    return [column, { kinds, cumulative: kinds.map((k) => (sum += weights[k]!)) }]
  }),
)

/**
 * Corrupts one clean value: draws a kind by the column's weights, and when that kind does not apply or
 * leaves the string unchanged, tries the column's other kinds in a seeded order. Null placeholders always
 * change a (never empty) clean value, so every call succeeds for the synthetic columns.
 */
export function corruptValue(
  value: string,
  column: Exclude<SyntheticColumn, 'id'>,
  rng: Random,
): { value: string; kind: CorruptionKind } {
  const { kinds, cumulative } = WEIGHTED[column]!
  const u = rng.next() * cumulative[cumulative.length - 1]!
  let first = 0
  while (u >= cumulative[first]!) first++
  const order = [kinds[first]!, ...rng.shuffle(kinds.filter((_, i) => i !== first))]
  for (const kind of order) {
    const out = CORRUPTORS[kind](value, column, rng)
    if (out !== undefined && out !== value) return { value: out, kind }
  }
  throw new Error(`no corruption changes ${column} value "${value}"`)
}
