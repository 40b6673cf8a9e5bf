import { expect } from 'vitest'

/** A report page reaches nothing outside itself: no external URL, no load, a CSP that forbids loads, system fonts only. */
export function expectSelfContainedHtml(html: string): void {
  const withoutNamespaces = html.replace(/xmlns(:xlink)?="http:\/\/www\.w3\.org\/[^"]+"/g, '')
  expect(withoutNamespaces).not.toMatch(/https?:\/\//)
  expect(html).not.toMatch(/\s(src|href)="(?!#)/)
  expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?!#)[^"'\s>]/i)
  expect(html).not.toMatch(/@import|@font-face|url\((?!#)/i)
  expect(html).toMatch(
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+';/,
  )
}
