import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCsvStrict } from '../../src/datasets/csv.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

describe('CSV line endings', () => {
  it('reads mixed LF/CRLF as one record per line, never as multi-line values', () => {
    expect(parseCsvStrict('a\r\n1\n2\r\n3\n4\r\n', 'mixed.csv')).toEqual({
      columns: ['a'],
      rows: [['1'], ['2'], ['3'], ['4']],
    })
    expect(parseCsvStrict('a,b\n1,2\r\n"x\r\ny",z\n', 'quoted.csv').rows).toEqual([
      ['1', '2'],
      ['x\r\ny', 'z'],
    ])
  })

  it('refuses a FIFO or a device as input, naming it', async () => {
    await withTempDir(async (dir) => {
      execFileSync('mkfifo', [join(dir, 'dirty.csv')])
      await writeFile(join(dir, 'clean.csv'), 'a\n1\n')
      const fifo = await runCli(
        ['run', '--agent', 'noop', '--dataset', 'x', '--dirty-csv', 'dirty.csv', '--clean-csv', 'clean.csv'],
        dir,
      )
      expect(fifo.code).toBe(2)
      expect(fifo.stderr).toMatch(/dirty\.csv is not a regular file \(a FIFO, device or socket\)/)
      const device = await runCli(
        ['run', '--agent', 'noop', '--dataset', 'x', '--dirty-csv', '/dev/zero', '--clean-csv', 'clean.csv'],
        dir,
      )
      expect(device.code).toBe(2)
      expect(device.stderr).toMatch(/\/dev\/zero is not a regular file/)
      const runs = await runCli(['export', '/dev/zero', '--parquet', 'x.parquet'], dir)
      expect(runs.code).toBe(2)
      expect(runs.stderr).toMatch(/\/dev\/zero: not a regular file/)
    })
  })
})

describe('number flags', () => {
  it('refuses a timeout no timer can hold, takes negative seeds, and names the value typed', async () => {
    await withTempDir(async (dir) => {
      const huge = await runCli(['run', '--agent', 'noop', '--dataset', 'synthetic', '--timeout-s', '3000000'], dir)
      expect(huge.code).toBe(2)
      expect(huge.stderr).toBe('dataforge-evals: --timeout-s must be ≤ 2147483.647, got "3000000"\n')

      const negative = await runCli(
        [
          'run',
          '--agent',
          'noop',
          '--dataset',
          'synthetic',
          '--rows',
          '20',
          '--trials',
          '2',
          '--seed',
          '-5',
          '--quiet',
        ],
        dir,
      )
      expect(negative.code, negative.stderr).toBe(0)
      const report = JSON.parse(await readFile(join(dir, 'reports/run/report.json'), 'utf8'))
      expect(report.records.map((r: { seed: number }) => r.seed)).toEqual([-5, -4])
      // compare and qa read a negative seed as the value too
      const compared = await runCli(
        ['compare', 'reports/run/report.json', 'reports/run/report.json', '--seed', '-5'],
        dir,
      )
      expect(compared.stderr).not.toMatch(/ambiguous/)
      expect(compared.code, compared.stderr).toBe(0)
      const qa = await runCli(
        [
          'qa',
          '--agent',
          'mock-qa',
          '--suite',
          'messy',
          '--limit',
          '2',
          '--seed',
          '-5',
          '--quiet',
          '--output',
          'q/qa.md',
          '--output-json',
          'q/qa.json',
        ],
        dir,
      )
      expect(qa.code, qa.stderr).toBe(0)
      expect(
        JSON.parse(await readFile(join(dir, 'q/qa.json'), 'utf8')).records.every(
          (r: { seed: number }) => r.seed === -5,
        ),
      ).toBe(true)

      const typed = await runCli(['run', '--agent', 'noop', '--dataset', 'synthetic', '--trials', '00'], dir)
      expect(typed.stderr).toBe('dataforge-evals: --trials must be ≥ 1, got "00"\n')
      const inexact = await runCli(
        ['run', '--agent', 'noop', '--dataset', 'synthetic', '--seed', '99999999999999999999'],
        dir,
      )
      expect(inexact.stderr).toBe('dataforge-evals: --seed is too large to be exact, got "99999999999999999999"\n')
    })
  })
})

describe('help', () => {
  it('every subcommand answers --help with its own usage and exit 0; bare prints the top-level help once', async () => {
    await withTempDir(async (dir) => {
      const commands: Array<[string[], RegExp]> = [
        [['run', '--help'], /^Usage: dataforge-evals run /],
        [['list-agents', '--help'], /^Usage: dataforge-evals list-agents/],
        [['list-datasets', '--help'], /^Usage: dataforge-evals list-datasets/],
        [['datasets', '--help'], /^Usage: dataforge-evals datasets pull/],
        [['datasets', 'pull', '--help'], /^Usage: dataforge-evals datasets pull/],
        [['compare', '--help'], /^Usage: dataforge-evals compare/],
        [['export', '--help'], /^Usage: dataforge-evals export/],
        [['corpus', 'merge', '--help'], /^Usage: dataforge-evals corpus merge/],
        [['verify', '--help'], /^Usage: dataforge-evals verify/],
        [['view', '--help'], /^Usage: dataforge-evals view DIR /],
        [['prices', 'fetch', '--help'], /^Usage: dataforge-evals prices fetch/],
      ]
      for (const [argv, usage] of commands) {
        const res = await runCli(argv, dir)
        expect(res.code, argv.join(' ')).toBe(0)
        expect(res.stdout, argv.join(' ')).toMatch(usage)
        expect(res.stderr).toBe('')
      }
      const bare = await runCli([], dir)
      expect(bare.code).toBe(0)
      expect(bare.stdout.match(/Usage: dataforge-evals/g)).toHaveLength(1)
      expect(bare.stdout).toMatch(/Commands:/)
    })
  })
})

describe('timeouts a timer can hold', () => {
  it('evalCase and conversation timeouts beyond 2^31−1 ms are refused, naming the option', async () => {
    const { checkTimeoutMs } = await import('../../src/run/with-timeout.js')
    expect(() => checkTimeoutMs(2 ** 31, 'evalCase "x": timeout')).toThrow(
      /evalCase "x": timeout of 2147483648 ms is beyond what a timer can hold/,
    )
    expect(() => checkTimeoutMs(0, 'timeout')).toThrow(/must be a positive number/)
    expect(() => checkTimeoutMs(2 ** 31 - 1, 'timeout')).not.toThrow()
  })
})
