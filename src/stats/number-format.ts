/** Significance stars: '***' p < 0.001, '**' p < 0.01, '*' p < 0.05, '' otherwise (and for NaN). */
export function stars(p: number): string {
  if (p < 0.001) return '***'
  if (p < 0.01) return '**'
  if (p < 0.05) return '*'
  return ''
}

/** Fixed digits, never '-0.000'; 'n/a' for null or NaN. */
export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a'
  const text = value.toFixed(digits)
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text
}

/** Like `formatNumber` with an explicit '+' on positive values: the one way every report prints a delta. */
export function formatSigned(value: number | null | undefined, digits = 3): string {
  const text = formatNumber(value, digits)
  return text !== 'n/a' && !text.startsWith('-') && Number(text) !== 0 ? `+${text}` : text
}

/** The signed difference `after − before`, 'n/a' when either side is missing. */
export function formatDelta(before: number | null | undefined, after: number | null | undefined, digits = 3): string {
  if (before === null || before === undefined || after === null || after === undefined) return 'n/a'
  return formatSigned(after - before, digits)
}

/** `0.812 [0.780, 0.840]`; the point alone when a bound is missing; 'n/a' without a point. */
export function formatInterval(
  point: number | null | undefined,
  low: number | null | undefined,
  high: number | null | undefined,
  digits = 3,
): string {
  const p = formatNumber(point, digits)
  if (p === 'n/a' || low === null || low === undefined || high === null || high === undefined) return p
  return `${p} [${formatNumber(low, digits)}, ${formatNumber(high, digits)}]`
}

const STAR_LEVELS = [0.05, 0.01] as const

/**
 * p-values as their stars read them: '<0.001' below 0.001 (where '***' starts), else four decimals; where
 * rounding would carry a p across 0.05 or 0.01 (0.04996 → '0.0500' beside a '*'), the bound is printed
 * instead ('<0.05').
 */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return 'n/a'
  if (p < 0.001) return '<0.001'
  const text = p.toFixed(4)
  for (const level of STAR_LEVELS) if (p < level && Number(text) >= level) return `<${level}`
  return text
}

/** `3`, `1.5`, `0.25`: seconds as a person reads them in a log line or message. */
export function formatSeconds(seconds: number): string {
  if (Number.isInteger(seconds)) return String(seconds)
  return String(Number(seconds.toFixed(seconds < 1 ? 2 : 1)))
}

/** `1 second`, `2 seconds`, `1.5 seconds`: a duration in words, singular only for exactly one. */
export function secondsPhrase(seconds: number): string {
  const text = formatSeconds(seconds)
  return `${text} ${text === '1' ? 'second' : 'seconds'}`
}

/** `1 row`, `2 rows`, `0 rows`: a count with its noun in the number it takes (`many` for irregular plurals). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** `p = 0.0123`, `p < 0.001`, never `p = <0.001`; compact: `p=0.0123`, `p<0.001`. */
export function formatPClause(p: number | null | undefined, compact = false): string {
  const text = formatP(p)
  const space = compact ? '' : ' '
  return text.startsWith('<') ? `p${space}<${space}${text.slice(1)}` : `p${space}=${space}${text}`
}
