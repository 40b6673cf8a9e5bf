import { type FSWatcher, watch } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { InputError } from '../core/errors.js'
import { esc } from '../report-builder/html/escape.js'
import { viewerCspHeader, viewerPage } from './page.js'
import { type SiteOptions, ViewerSite } from './site.js'

interface RunningViewer {
  url: string
  site: ViewerSite
  close(): Promise<void>
}

interface ServeOptions extends SiteOptions {
  port: number
  /** One line for the operator: a reload that failed (the previous pages stay), a reload done. */
  log?: (line: string) => void
  /** Milliseconds of quiet after a change before the folder is read again. */
  settleMs?: number
}

const HOSTS = (port: number) => new Set([`127.0.0.1:${port}`, `localhost:${port}`])

/**
 * Serves a report's pages on 127.0.0.1 until `close()`. Only GET, only for the viewer's own host names (a page
 * elsewhere cannot reach it through DNS rebinding). When the report folder changes the report is read again
 * and open pages reload through an event stream; a folder caught half-written keeps the pages it had.
 */
export async function serveViewer(options: ServeOptions): Promise<RunningViewer> {
  const site = new ViewerSite(options, 'served')
  await site.load()
  const streams = new Set<ServerResponse>()
  let port = 0
  const server = createServer((req, res) => {
    handle(site, req, res, HOSTS(port), streams).catch((error: unknown) => {
      send(res, 500, errorPage('The viewer failed on this page', (error as Error).message))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new InputError(
            `--port ${options.port}: 127.0.0.1:${options.port} is in use; give another port, or --port 0 for a free one`,
          ),
        )
      else if (error.code === 'EACCES')
        reject(
          new InputError(
            `--port ${options.port}: not allowed to listen on 127.0.0.1:${options.port}; give a port above 1023, or --port 0`,
          ),
        )
      else reject(error)
    })
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port
  const watcher = watchFolder(site, options, () => {
    for (const res of streams) res.write('data: reload\n\n')
  })
  return {
    url: `http://127.0.0.1:${port}/`,
    site,
    close: async () => {
      watcher.close()
      for (const res of streams) res.end()
      // An open page keeps its event stream (and reconnects): close every connection, not only idle ones.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

function watchFolder(site: ViewerSite, options: ServeOptions, reloaded: () => void): FSWatcher {
  let timer: NodeJS.Timeout | null = null
  let reading = Promise.resolve()
  const watcher = watch(site.report.dir, { persistent: false }, () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      reading = reading.then(async () => {
        try {
          await site.load()
          options.log?.(`reloaded ${site.report.runsFile}: ${site.runCount()} runs`)
          reloaded()
        } catch (error) {
          options.log?.(`kept the pages as they were: ${(error as Error).message.split('\n')[0]}`)
        }
      })
    }, options.settleMs ?? 150)
  })
  watcher.on('error', () => {})
  return watcher
}

async function handle(
  site: ViewerSite,
  req: IncomingMessage,
  res: ServerResponse,
  hosts: Set<string>,
  streams: Set<ServerResponse>,
): Promise<void> {
  if (!hosts.has(req.headers.host ?? ''))
    return send(res, 421, errorPage('Wrong host', 'The viewer answers only on 127.0.0.1 and localhost.'))
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, errorPage('Read only', 'The viewer answers GET only.'))
  const path = (req.url ?? '/').split(/[?#]/, 1)[0]!
  if (path === '/' || path === '/index.html') return send(res, 200, site.indexHtml())
  if (path === '/_events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' })
    res.write(': viewer\n\n')
    streams.add(res)
    req.on('close', () => streams.delete(res))
    return
  }
  const run = /^\/runs\/(\d{1,9})(?:\.html)?$/.exec(path)
  if (run) {
    const n = Number(run[1])
    if (n < site.runCount()) return send(res, 200, await site.runHtml(n))
    return send(
      res,
      404,
      errorPage('No such run', `The report has ${site.runCount()} runs: 0 to ${site.runCount() - 1}.`),
    )
  }
  send(res, 404, errorPage('Not found', 'The viewer serves / and /runs/N.'))
}

function send(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent) return void res.end()
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': viewerCspHeader(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  })
  res.end(html)
}

function errorPage(title: string, text: string): string {
  return viewerPage({
    title,
    bar: '<a href="/">all runs</a>',
    body: `<h1>${esc(title)}</h1><p>${esc(text)}</p>`,
    live: true,
  })
}
