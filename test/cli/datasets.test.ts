import { createReadStream, existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { bundledDatasets } from '../helpers/dataset-paths.js'

/** Serves `<name>/{dirty,clean}.csv` from the shared canonical copies, like the pinned upstream does. */
async function serveShared(): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    const match = /^\/([a-z]+)\/(dirty|clean)\.csv$/.exec(req.url ?? '')
    const file = match ? join(bundledDatasets, match[1]!, `${match[2]}.csv`) : ''
    if (!file || !existsSync(file)) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/csv' })
    createReadStream(file).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

describe('dataforge-evals datasets pull', () => {
  let server: Server | undefined
  afterEach(async () => {
    server?.closeAllConnections()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    server = undefined
  })

  it('downloads a canonical set, checks its sha256, and the set is then listed and runnable', async () => {
    const served = await serveShared()
    server = served.server
    await withTempDir(async (dir) => {
      const pulled = await runCli(['datasets', 'pull', 'hospital', '--base-url', served.baseUrl], dir)
      expect(pulled.code, pulled.stderr).toBe(0)
      expect(pulled.stdout).toContain(join(dir, 'data/hospital/dirty.csv'))
      const listed = await runCli(['list-datasets'], dir)
      expect(listed.stdout).toContain(
        '| name | rows × columns | errors (graded, exact comparator) | differences the comparator ignores |',
      )
      expect(listed.stdout).toMatch(/\| hospital \| 1000 × 20 \| 509 \| 0 \|/)
      expect(listed.stdout).toMatch(/\| synthetic \| 200 × 11 \| 95 \| 5 \|/)
      const run = await runCli(['run', '--agent', 'mock', '--dataset', 'hospital', '--quiet'], dir)
      expect(run.code, run.stderr).toBe(0)
    })
  })

  it('offline: exit 2 with one line that says where to put the files by hand', async () => {
    const closed = await serveShared()
    const baseUrl = closed.baseUrl
    await new Promise<void>((resolve) => closed.server.close(() => resolve()))
    await withTempDir(async (dir) => {
      const res = await runCli(['datasets', 'pull', 'flights', '--base-url', baseUrl], dir)
      expect(res.code).toBe(2)
      // Progress lines, then the error on one line.
      const errors = res.stderr
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('dataforge-evals:'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/cannot reach .*ECONNREFUSED.*to install it by hand/)
      expect(errors[0]).toContain(join(dir, 'data/flights/dirty.csv'))
      expect(existsSync(join(dir, 'data/flights/dirty.csv'))).toBe(false)
    })
  })

  it('refuses names it does not know', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(['datasets', 'pull', 'nonesuch'], dir)
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/nonesuch/)
    })
  })
})
