import { describe, expect, it } from 'vitest'
import { colorOn, colorsFor, shownPath } from '../../src/cli/io.js'

describe('what the CLI prints', () => {
  it('paths inside the working directory relative to it, others as given', () => {
    expect(shownPath('/work/p', '/work/p/reports/report.md')).toBe('reports/report.md')
    expect(shownPath('/work/p', '/work/p2/report.md')).toBe('/work/p2/report.md')
    expect(shownPath('/work/p', '/tmp/x.json')).toBe('/tmp/x.json')
  })

  it('no color where NO_COLOR is set in the command environment, whatever the terminal', () => {
    expect(colorOn({ env: { NO_COLOR: '1' } })).toBe(false)
    expect(colorOn({ env: { NO_COLOR: '' } })).toBe(false)
    expect(colorsFor({ env: { NO_COLOR: '1' } }).red('FAILED timeout')).toBe('FAILED timeout')
  })
})
