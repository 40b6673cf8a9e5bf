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

/** Like `formatNumber` with an explicit '+' on positive values, for deltas. */
export function formatSigned(value: number | null | undefined, digits = 3): string {
  const text = formatNumber(value, digits)
  return text !== 'n/a' && !text.startsWith('-') && Number(text) !== 0 ? `+${text}` : text
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

/** p-values with four decimals, '<0.0001' below that. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return 'n/a'
  return p < 0.0001 ? '<0.0001' : p.toFixed(4)
}
