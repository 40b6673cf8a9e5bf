import type { MeanInterval } from '../stats/bootstrap.js'
import { formatInterval, formatNumber } from '../stats/number-format.js'
import { markdownCellStructure as cell } from '../core/escape-text.js'

/** Fixed-width number formatting for diffable reports (never `-0.000`); `—` for missing values. */
export function fixed(value: number | null | undefined, digits = 3): string {
  const text = formatNumber(value, digits)
  return text === 'n/a' ? '—' : text
}

/** `0.587 ± 0.073`; with one value there is no spread to show: `0.286 (n = 1)`. */
export function meanStd(mean: number | null, std: number | null, n: number, digits = 3): string {
  if (mean === null) return '—'
  if (n < 2) return `${fixed(mean, digits)} (n = 1)`
  return `${fixed(mean, digits)} ± ${fixed(std ?? 0, digits)}`
}

/** A mean's bootstrap interval; with one value there is none to show: `— (n = 1)`. */
export function meanIntervalText(interval: MeanInterval | null, digits = 3): string {
  if (!interval || interval.mean === null) return '—'
  if (interval.n < 2) return '— (n = 1)'
  return formatInterval(interval.mean, interval.low, interval.high, digits)
}

/** Quota units and costs keep their small fractions visible without scientific notation. */
export function units(value: number): string {
  if (value === 0) return '0'
  if (Math.abs(value) >= 100) return value.toFixed(1)
  if (Math.abs(value) >= 1) return value.toFixed(3)
  return value.toPrecision(3)
}

/**
 * A cost as a report prints it. `not priced` where the $0 would mean "no prices were given" rather than "it was
 * free": the report says prices were not given (`priced` false), or it does not say (`undefined`) and tokens were
 * spent at no cost. A real $0 (prices given, a free model, or nothing spent) stays `$0`.
 */
export function costText(value: number | null, tokensSpent: number, priced: boolean | undefined): string {
  if (value !== null && value === 0 && tokensSpent > 0 && priced !== true) return 'not priced'
  return usd(value)
}

export function usd(value: number | null): string {
  if (value === null) return '—'
  return `$${value === 0 ? '0' : value < 0.01 ? value.toPrecision(3) : value.toFixed(4)}`
}

/** Fixed-digit seconds for report tables (diffable); log lines use `formatSeconds`. */
export function seconds(value: number): string {
  return `${value.toFixed(2)} s`
}

/**
 * A Markdown table. Cells are Markdown: text from agents, data or files goes in through `markdownCell`
 * (core/escape-text.ts); every cell, header included, is kept on one line with its bare `|` escaped, and a
 * blank cell shows `—`.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(filled).join(' | ')} |`
  return [line(header), `| ${header.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n')
}

function filled(text: string): string {
  const escaped = cell(text)
  return escaped.trim() === '' ? '—' : escaped
}
