import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withTempDir } from '../helpers/cli-harness.js'
import { finished, spawnCli } from '../helpers/cli-child.js'
import { writeFixtureReport } from './fixture.js'
import { startView } from './serve-helper.js'

/** fetch() keeps its own Host header; a DNS-rebinding page's request carries the attacker's name. */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode)
    })
    req.on('error', reject)
    req.end()
  })
}

const view = async (argv: string[], cwd: string) => finished(spawnCli(['view', ...argv], cwd))

/** Exit 2 and exactly one line on stderr, nothing on stdout. */
function oneLine(res: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(res.stdout).toBe('')
  expect(res.stderr.split('\n').filter(Boolean)).toHaveLength(1)
  expect(res.stderr).toMatch(pattern)
  expect(res.code).toBe(2)
}

describe('view: bad input is one line and exit 2', () => {
  it('a folder without a runs file, a missing path, a record cut short or edited, a transcripts file cut short, a bad port', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'empty'))
      oneLine(
        await view(['empty'], dir),
        /^dataforge-evals: \/.*\/empty: no runs file \(runs\.jsonl or NAME\.runs\.jsonl\)/,
      )
      oneLine(await view(['nowhere'], dir), /^dataforge-evals: view: nowhere: no such folder or file\n$/)

      await writeFixtureReport(join(dir, 'cut'))
      const runs = join(dir, 'cut', 'runs.jsonl')
      const text = await readFile(runs, 'utf8')
      await writeFile(runs, text.slice(0, text.length - 200))
      oneLine(await view(['cut', '--export', 'out'], dir), /runs\.jsonl: line 4: .*JSON/)

      await writeFixtureReport(join(dir, 'edited'))
      const edited = join(dir, 'edited', 'runs.jsonl')
      await writeFile(edited, (await readFile(edited, 'utf8')).replace('"f1":0.0588', '"f1":2.0588'))
      oneLine(
        await view(['edited', '--port', '0'], dir),
        /runs\.jsonl: line 1: field "f1": must be a rate in \[0, 1\]\n$/,
      )

      await writeFixtureReport(join(dir, 'cut-transcripts'))
      const transcripts = join(dir, 'cut-transcripts', 'transcripts.jsonl')
      const t = await readFile(transcripts, 'utf8')
      await writeFile(transcripts, t.slice(0, t.length - 40))
      oneLine(
        await view(['cut-transcripts', '--port', '0'], dir),
        /transcripts\.jsonl: line 2: not valid JSON .*cut short\?\n$/,
      )

      oneLine(
        await view(['edited', '--export', 'edited'], dir),
        /^dataforge-evals: --export edited: the pages need a folder of their own, not the report folder\n$/,
      )
      oneLine(
        await view(['edited', '--port', 'http'], dir),
        /^dataforge-evals: --port must be an integer, got "http"\n$/,
      )
    })
  }, 120_000)

  it('a port in use', async () => {
    await withTempDir(async (dir) => {
      await writeFixtureReport(join(dir, 'r'))
      const busy = createServer()
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()))
      const port = (busy.address() as AddressInfo).port
      try {
        oneLine(
          await view(['r', '--port', String(port)], dir),
          new RegExp(
            `^dataforge-evals: --port ${port}: 127\\.0\\.0\\.1:${port} is in use; give another port, or --port 0 for a free one\\n$`,
          ),
        )
      } finally {
        busy.close()
      }
    })
  }, 60_000)

  it('serves only to its own host names and only GET; a record edited while serving keeps the pages and says why', async () => {
    await withTempDir(async (dir) => {
      await writeFixtureReport(join(dir, 'r'), {}, 'smoke')
      const served = await startView(['r/smoke.runs.jsonl', '--port', '0'], dir)
      try {
        const port = new URL(served.url).port
        expect((await fetch(served.url)).status).toBe(200)
        expect((await fetch(`${served.url}runs/0`)).headers.get('content-security-policy')).toContain(
          "frame-ancestors 'none'",
        )
        expect((await fetch(`${served.url}runs/4`)).status).toBe(404)
        expect((await fetch(served.url, { method: 'POST' })).status).toBe(405)
        expect(await statusWithHost(served.url, `evil.example:${port}`)).toBe(421)
        const runs = join(dir, 'r', 'smoke.runs.jsonl')
        await writeFile(runs, `${await readFile(runs, 'utf8')}{"recordVersion":1,"caseId":`)
        await expect
          .poll(() => served.stderr(), { timeout: 15_000 })
          .toMatch(/kept the pages as they were: .*smoke\.runs\.jsonl: line 5/)
        expect((await fetch(`${served.url}runs/3`)).status).toBe(200)
      } finally {
        expect((await served.stop()).code).toBe(0)
      }
    })
  }, 60_000)
})
