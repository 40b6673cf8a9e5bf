import { describe, expect, it } from 'vitest'
import { trialLabel } from '../../src/core/trial-label.js'
import { counted, formatPClause } from '../../src/stats/number-format.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 28: what the CLI prints reads as a person writes it.

describe('CLI wording', () => {
  it('list-agents never prints an empty detail "()"', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(['list-agents'], dir)
      expect(res.code).toBe(0)
      expect(res.stdout).not.toContain('()')
      expect(res.stdout).toMatch(
        /openai-compatible +model +openai-compatible via its OpenAI-compatible API \(needs --base-url\)/,
      )
    })
  })

  it('counts take the number of their noun; p-values say "p < 0.001", never "p = <0.001"; trials count from 1', () => {
    expect([counted(0, 'row'), counted(1, 'row'), counted(2, 'row'), counted(1, 'pair'), counted(2, 'pair')]).toEqual([
      '0 rows',
      '1 row',
      '2 rows',
      '1 pair',
      '2 pairs',
    ])
    expect([
      formatPClause(0.0004),
      formatPClause(0.0123),
      formatPClause(0.0004, true),
      formatPClause(0.5, true),
    ]).toEqual(['p < 0.001', 'p = 0.0123', 'p<0.001', 'p=0.5000'])
    expect([trialLabel(0), trialLabel(2, 3)]).toEqual(['trial 1', 'trial 3/3'])
  })
})
