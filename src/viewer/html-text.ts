import { esc } from '../report-builder/html/escape.js'

/**
 * Untrusted text for the page: HTML-escaped (report-builder/html/escape.ts), with terminal escapes and other
 * control characters shown as visible marks, so ANSI colours, cursor moves and bidi overrides read as text.
 * Markdown is never rendered, so it stays the characters it is.
 */
export function txt(value: string | number | null | undefined): string {
  return esc(visible(String(value ?? '')))
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function visible(text: string): string {
  return text.replace(CONTROL, (c) =>
    c === '\u001b' ? '\u241b' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** A value in a table cell: an empty string marked, so it is not mistaken for a missing one. */
export function cellValue(value: string | undefined, missing: string): string {
  if (value === undefined) return `<span class="muted">${esc(missing)}</span>`
  if (value === '') return '<span class="muted">(empty)</span>'
  return txt(value)
}

/** Where a page's links point: served pages (`/`, `/runs/3`) and exported ones (`index.html`, `runs/3.html`). */
export interface Links {
  index: string
  run(n: number): string
}

export function linksFrom(where: 'index' | 'run', mode: 'served' | 'export'): Links {
  const suffix = mode === 'export' ? '.html' : ''
  if (where === 'index') return { index: mode === 'export' ? 'index.html' : './', run: (n) => `runs/${n}${suffix}` }
  return { index: mode === 'export' ? '../index.html' : '../', run: (n) => `${n}${suffix}` }
}

export function badge(text: string, tone: 'good' | 'bad' | 'warn' | ''): string {
  return `<span class="badge ${tone}">${esc(text)}</span>`
}
