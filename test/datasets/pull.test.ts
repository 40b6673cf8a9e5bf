import { createHash } from 'node:crypto'
import { readFile, readdir, writeFile, mkdir } from 'node:fs/promises'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/errors.js'
import { CANONICAL_DATASETS, DatasetDownloadError, loadDataset, pullDataset } from '../../src/datasets/index.js'
import { rejectionOf, bundledDatasets, tempDir } from '../helpers/dataset-paths.js'

/** A real HTTP server on 127.0.0.1 serving `/<prefix>/<name>/<file>` from the bundled datasets folder. */
interface FileServer {
  baseUrl: string
  requests: string[]
  /** Paths (e.g. `/raha/flights/clean.csv`) answered with one byte changed. */
  tamper: Set<string>
  /** Paths answered 404. */
  missing: Set<string>
  /** Paths that get headers but never a body. */
  stall: Set<string>
  close(): Promise<void>
}

async function startFileServer(): Promise<FileServer> {
  const requests: string[] = []
  const tamper = new Set<string>()
  const missing = new Set<string>()
  const stall = new Set<string>()
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? '/'
    requests.push(path)
    const match = /^\/raha\/(hospital|flights|beers)\/(dirty|clean)\.csv$/.exec(path)
    if (!match || missing.has(path)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    if (stall.has(path)) {
      res.writeHead(200, { 'content-type': 'text/csv' })
      res.write('index,')
      return
    }
    let bytes: Buffer
    try {
      bytes = await readFile(join(bundledDatasets, match[1]!, `${match[2]}.csv`))
    } catch (error) {
      // Every request gets an answer: a missing file fails the test at once, never by a timeout.
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
      return
    }
    if (tamper.has(path)) bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': bytes.length }).end(bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/raha`,
    requests,
    tamper,
    missing,
    stall,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      }),
  }
}

/** A port that was just bound and released: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('pullDataset against a local HTTP server', () => {
  let server: FileServer
  let dataDir: string
  let cleanup: () => Promise<void>

  beforeAll(async () => {
    server = await startFileServer()
  })
  afterAll(() => server.close())
  beforeEach(async () => {
    ;({ dir: dataDir, cleanup } = await tempDir('dataforge-pull-'))
    server.requests.length = 0
    server.tamper.clear()
    server.missing.clear()
    server.stall.clear()
  })
  afterEach(() => cleanup())

  it('downloads both files, checks their sha256 and leaves a loadable dataset', async () => {
    const lines: string[] = []
    const { files } = await pullDataset('hospital', { dataDir, baseUrl: server.baseUrl, log: (l) => lines.push(l) })
    expect(files).toEqual([join(dataDir, 'hospital/dirty.csv'), join(dataDir, 'hospital/clean.csv')])
    expect(server.requests).toEqual(['/raha/hospital/dirty.csv', '/raha/hospital/clean.csv'])
    for (const role of ['dirty', 'clean'] as const) {
      const bytes = await readFile(join(dataDir, 'hospital', `${role}.csv`))
      expect(sha(bytes)).toBe(CANONICAL_DATASETS.hospital.files[role].sha256)
    }
    expect(await readdir(join(dataDir, 'hospital'))).toEqual(['clean.csv', 'dirty.csv'])
    expect(lines).toEqual([
      `hospital/dirty.csv: downloading ${server.baseUrl}/hospital/dirty.csv`,
      `hospital/clean.csv: downloading ${server.baseUrl}/hospital/clean.csv`,
      `hospital: wrote ${join(dataDir, 'hospital/dirty.csv')} (303306 bytes, sha256 ok)`,
      `hospital: wrote ${join(dataDir, 'hospital/clean.csv')} (303324 bytes, sha256 ok)`,
    ])
    const { info } = await loadDataset({ id: 'hospital', seed: 0, dataDir })
    expect(info.dirtyCells).toBe(509)
    expect(info.source).toContain('sha256 verified')
  })

  it('keeps files already present with the right hash and fetches only what is missing', async () => {
    await pullDataset('flights', { dataDir, baseUrl: server.baseUrl })
    await writeFile(join(dataDir, 'flights/clean.csv'), 'stale')
    server.requests.length = 0
    const lines: string[] = []
    await pullDataset('flights', { dataDir, baseUrl: server.baseUrl, log: (l) => lines.push(l) })
    expect(server.requests).toEqual(['/raha/flights/clean.csv'])
    expect(lines[0]).toBe(`flights/dirty.csv: already present at ${join(dataDir, 'flights/dirty.csv')}, sha256 ok`)
    expect(sha(await readFile(join(dataDir, 'flights/clean.csv')))).toBe(CANONICAL_DATASETS.flights.files.clean.sha256)
  })

  it('rejects a download whose sha256 differs, naming file, expected and actual hash, and writes nothing', async () => {
    server.tamper.add('/raha/beers/clean.csv')
    const served = await readFile(join(bundledDatasets, 'beers/clean.csv'))
    served[served.length - 2] = served[served.length - 2]! ^ 1
    const error = await rejectionOf(pullDataset('beers', { dataDir, baseUrl: server.baseUrl }))
    expect(error).toBeInstanceOf(DatasetDownloadError)
    expect(error).toBeInstanceOf(InputError)
    const expected = CANONICAL_DATASETS.beers.files.clean.sha256
    expect(error.message).toBe(
      `beers/clean.csv: sha256 mismatch for ${server.baseUrl}/beers/clean.csv: expected ${expected} (233019 bytes), got ${sha(served)} (233019 bytes); nothing was written`,
    )
    // The dirty file was fine, but nothing is written until both are verified; no temp files remain.
    expect(await readdir(dataDir)).toEqual([])
  })

  it('reports a 404 with the URL and how to install the files by hand', async () => {
    server.missing.add('/raha/flights/clean.csv')
    const error = await rejectionOf(pullDataset('flights', { dataDir, baseUrl: server.baseUrl }))
    expect(error).toBeInstanceOf(DatasetDownloadError)
    expect(error.message).toMatch(
      new RegExp(
        `^flights/clean\\.csv: GET ${server.baseUrl}/flights/clean\\.csv answered 404 Not Found; to install it by hand, download `,
      ),
    )
    expect(error.message).toContain(
      `put them at ${join(dataDir, 'flights/dirty.csv')} (sha256 ${CANONICAL_DATASETS.flights.files.dirty.sha256})`,
    )
    expect(await readdir(dataDir)).toEqual([])
  })

  it('offline (connection refused) says so and where to put the files', async () => {
    const port = await closedPort()
    const baseUrl = `http://127.0.0.1:${port}/raha`
    const error = await rejectionOf(pullDataset('hospital', { dataDir, baseUrl }))
    expect(error).toBeInstanceOf(DatasetDownloadError)
    expect(error.message).toBe(
      `hospital/dirty.csv: cannot reach ${baseUrl}/hospital/dirty.csv (ECONNREFUSED): offline?; to install it by hand, ` +
        `download ${baseUrl}/hospital/dirty.csv and clean.csv and put them at ${join(dataDir, 'hospital/dirty.csv')} ` +
        `(sha256 ${CANONICAL_DATASETS.hospital.files.dirty.sha256}) and ${join(dataDir, 'hospital/clean.csv')} ` +
        `(sha256 ${CANONICAL_DATASETS.hospital.files.clean.sha256})`,
    )
    expect(await readdir(dataDir)).toEqual([])
  })

  it('a DNS failure is reported as offline too', async () => {
    const fetchImpl = (async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
      })
    }) as typeof fetch
    const error = await rejectionOf(
      pullDataset('beers', { dataDir, baseUrl: 'http://no-such-host.invalid/raha', fetchImpl }),
    )
    expect(error).toBeInstanceOf(DatasetDownloadError)
    expect(error.message).toMatch(
      /^beers\/dirty\.csv: cannot reach http:\/\/no-such-host\.invalid\/raha\/beers\/dirty\.csv \(ENOTFOUND\): offline\?; to install it by hand/,
    )
  })

  it('gives up on a download that stalls, after the configured limit', async () => {
    server.stall.add('/raha/flights/dirty.csv')
    const error = await rejectionOf(pullDataset('flights', { dataDir, baseUrl: server.baseUrl, timeoutMs: 200 }))
    expect(error).toBeInstanceOf(DatasetDownloadError)
    expect(error.message).toContain(
      `flights/dirty.csv: download of ${server.baseUrl}/flights/dirty.csv timed out after 200 ms;`,
    )
    expect(await readdir(dataDir)).toEqual([])
  })

  it('takes the base URL from DATAFORGE_DATASETS_BASE_URL, with the option winning over it', async () => {
    await pullDataset('hospital', { dataDir, env: { DATAFORGE_DATASETS_BASE_URL: `${server.baseUrl}/` } })
    expect(server.requests).toEqual(['/raha/hospital/dirty.csv', '/raha/hospital/clean.csv'])
    const other = await tempDir('dataforge-pull-')
    try {
      server.requests.length = 0
      await pullDataset('hospital', {
        dataDir: other.dir,
        baseUrl: server.baseUrl,
        env: { DATAFORGE_DATASETS_BASE_URL: 'http://127.0.0.1:1/nowhere' },
      })
      expect(server.requests).toHaveLength(2)
    } finally {
      await other.cleanup()
    }
  })

  it('uses an injected fetch and never echoes credentials in the base URL', async () => {
    const seen: string[] = []
    const fetchImpl = (async (url: string | URL | Request) => {
      seen.push(String(url))
      return new Response('nope', { status: 503, statusText: 'Service Unavailable' })
    }) as typeof fetch
    const error = await rejectionOf(
      pullDataset('beers', { dataDir, baseUrl: 'http://user:s3cret-token@127.0.0.1:9/raha', fetchImpl }),
    )
    expect(seen).toEqual(['http://user:s3cret-token@127.0.0.1:9/raha/beers/dirty.csv'])
    expect(error.message).toContain('answered 503 Service Unavailable')
    expect(error.message).not.toContain('s3cret-token')
  })

  it('says so when the verified files cannot be written', async () => {
    const blocker = join(dataDir, 'not-a-folder')
    await writeFile(blocker, 'a file where the data folder should be')
    const error = await rejectionOf(pullDataset('hospital', { dataDir: blocker, baseUrl: server.baseUrl }))
    expect(error).toBeInstanceOf(DatasetDownloadError)
    expect(error.message).toMatch(
      new RegExp(`^hospital: downloaded and verified, but cannot write ${join(blocker, 'hospital/dirty.csv')}: `),
    )
  })

  it('refuses names it cannot pull', async () => {
    await expect(pullDataset('rayyan', { dataDir, baseUrl: server.baseUrl })).rejects.toThrow(
      new InputError(
        'cannot pull "rayyan": pull knows hospital, flights, beers; put other datasets at <dataDir>/rayyan/dirty.csv and clean.csv',
      ),
    )
    expect(server.requests).toEqual([])
  })

  it('replaces a corrupt local file only after the new one is verified', async () => {
    await mkdir(join(dataDir, 'beers'))
    await writeFile(join(dataDir, 'beers/dirty.csv'), 'half a fi')
    server.tamper.add('/raha/beers/dirty.csv')
    await expect(pullDataset('beers', { dataDir, baseUrl: server.baseUrl })).rejects.toThrow(DatasetDownloadError)
    expect(await readFile(join(dataDir, 'beers/dirty.csv'), 'utf8')).toBe('half a fi')
    server.tamper.clear()
    await pullDataset('beers', { dataDir, baseUrl: server.baseUrl })
    expect(sha(await readFile(join(dataDir, 'beers/dirty.csv')))).toBe(CANONICAL_DATASETS.beers.files.dirty.sha256)
    expect(await readdir(join(dataDir, 'beers'))).toEqual(['clean.csv', 'dirty.csv'])
  })
})
