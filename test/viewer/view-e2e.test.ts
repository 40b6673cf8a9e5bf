// biome-ignore-all lint/performance/useDomNodeTextContent: the text as the browser renders it is what these tests read
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { completion, type FakeChatServer, startFakeServer } from '../helpers/fake-provider.js'
import { launchChromium } from '../report-builder/html/browser.js'
import { startView } from './serve-helper.js'

const KEY = 'sk-test-view-e2e-5f1c0a'

let browser: Awaited<ReturnType<typeof launchChromium>>
let server: FakeChatServer
beforeAll(async () => {
  browser = await launchChromium()
  // The data agent's model, on loopback: it asks for one SQL query, then answers with the count it got.
  server = await startFakeServer({
    handler: async (req) => {
      const messages = (req.body as { messages: Array<{ role: string; content: string | null }> }).messages
      const lastUserAt = messages.map((m) => m.role).lastIndexOf('user')
      const tool = messages.slice(lastUserAt).find((m) => m.role === 'tool')
      const call = (name: string, args: Record<string, unknown>) =>
        completion(null, { toolCalls: [{ id: `c${messages.length}`, name, arguments: JSON.stringify(args) }], promptTokens: 50, completionTokens: 5 })
      if (!tool) return call('sql', { query: 'SELECT count(*) AS n FROM events' })
      const rows = (JSON.parse(tool.content!) as { rows: unknown[][] }).rows
      return call('answer', { value: JSON.stringify(rows[0]![0]), text: 'rows counted' })
    },
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** Every file under `dir`, as text. */
async function allText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true })
  const texts = await Promise.all(names.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')))
  return texts.join('\n')
}

describe('view on reports written by the real commands', () => {
  it('run (repair, then a changed agent --against it), qa with the data agent on a loopback model, conformance', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '40', '--quiet', '--output', 'base/report.md'], dir)).code).toBe(0)
      expect((await runCli(['run', '--agent', 'noop', '--dataset', 'synthetic', '--rows', '40', '--quiet', '--output', 'cand/report.md'], dir)).code).toBe(0)
      const qa = ['qa', '--agent', 'data-agent', '--base-url', server.baseUrl, '--model', 'm1', '--api-key-env', 'QA_KEY', '--suite', 'large', '--limit', '2', '--quiet']
      const asked = await runCli(qa, dir, { QA_KEY: KEY })
      expect(asked.code, asked.stderr).toBe(0)
      const samples = ['positive', 'negative', 'neutral'].flatMap((label, k) => Array.from({ length: [45, 28, 27][k]! }, (_, i) => JSON.stringify({ id: `${k}-${i}`, sentiment: label })))
      await writeFile(join(dir, 's.jsonl'), `${samples.join('\n')}\n`)
      await writeFile(join(dir, 'spec.json'), JSON.stringify({ properties: [{ name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 } }] }))
      expect((await runCli(['conformance', '--samples', 's.jsonl', '--spec', 'spec.json', '--output', 'conf/c.md', '--output-json', 'conf/c.json'], dir)).code).toBe(0)

      const page = await browser.context.newPage()
      page.setDefaultTimeout(10_000)
      // The repair run against the baseline: the changed agent (noop) fixed nothing, so every right cell is now missed.
      const repair = await startView(['cand', '--port', '0', '--against', 'base'], dir)
      try {
        await page.goto(repair.url)
        const changed = await page.locator('#changes tbody tr').first().innerText()
        expect(changed).toMatch(/noop · synthetic · synthetic · trial 1\s+incorrect · F1 0\.667\s+incorrect · F1 0\.000\s+worse\s+10\s*$/)
        await page.goto(`${repair.url}runs/0`)
        const main = await page.locator('main').innerText()
        expect(main).toContain('10 cells right → wrong · 0 wrong → right')
        expect(await page.locator('#cells-table tbody tr[data-verdict="missed"]').count()).toBeGreaterThan(0)
        expect(await page.locator('#cells-table tbody tr[data-verdict="right"]').count()).toBe(0)
        expect(main).toContain('This run made no model call through the gateway, so it has no transcript.')
      } finally {
        expect((await repair.stop()).code).toBe(0)
      }

      // The data agent's question runs: the verdict, the tool calls the record keeps, no key anywhere.
      const questions = await startView(['reports/qa', '--port', '0'], dir)
      try {
        await page.goto(questions.url)
        expect(await page.locator('#runs tbody tr').count()).toBe(2)
        await page.goto(`${questions.url}runs/0`)
        const main = await page.locator('main').innerText()
        expect(main).toContain('data-agent@m1 · large')
        expect(main).toMatch(/Answer and verdict\s+incorrect\s+expected [\d.]+ \(±[\d.]+\), found 100000 \(value\)/)
        for (const path of ['', 'runs/0', 'runs/1']) expect(await (await fetch(`${questions.url}${path}`)).text()).not.toContain(KEY)
      } finally {
        expect((await questions.stop()).code).toBe(0)
      }
      expect(await allText(join(dir, 'reports/qa'))).not.toContain(KEY)

      // The conformance run, from its JSON: the same layout, its metrics.
      const conformance = await startView(['conf/c.json', '--port', '0'], dir)
      try {
        await page.goto(`${conformance.url}runs/0`)
        const main = await page.locator('main').innerText()
        expect(main).toMatch(/conformance run/)
        expect(main).toMatch(/conformanceScore\s+95/)
      } finally {
        expect((await conformance.stop()).code).toBe(0)
      }
      await page.close()
    })
  }, 180_000)
})
