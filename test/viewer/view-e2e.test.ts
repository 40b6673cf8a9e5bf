// biome-ignore-all lint/performance/useDomNodeTextContent: the text as the browser renders it is what these tests read
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { runCli, withTempDir, modelQaArgs } from '../helpers/cli-harness.js'
import { COUNT_THEN_ANSWER, SQL_AND_DESCRIBE } from '../helpers/tool-model.js'
import { launchChromium } from '../report-builder/html/browser.js'
import { startView } from './serve-helper.js'

const KEY = 'sk-test-view-e2e-5f1c0a'

let browser: Awaited<ReturnType<typeof launchChromium>>
let server: FakeProvider
let tools: FakeProvider
beforeAll(async () => {
  browser = await launchChromium()
  tools = await new FakeProvider(SQL_AND_DESCRIBE).start()
  // The data agent's model, on loopback: it asks for one SQL query, then answers with the count it got.
  server = await new FakeProvider(COUNT_THEN_ANSWER).start()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await tools?.stop()
})

/** Every file under `dir`, as text. */
async function allText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true })
  const texts = await Promise.all(
    names.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')),
  )
  return texts.join('\n')
}

describe('view on reports written by the real commands', () => {
  it('run (repair, then a changed agent --against it), qa with the data agent on a loopback model, conformance', async () => {
    await withTempDir(async (dir) => {
      expect(
        (
          await runCli(
            [
              'run',
              '--agent',
              'baseline',
              '--dataset',
              'synthetic',
              '--rows',
              '40',
              '--quiet',
              '--output',
              'base/report.md',
            ],
            dir,
          )
        ).code,
      ).toBe(0)
      expect(
        (
          await runCli(
            [
              'run',
              '--agent',
              'noop',
              '--dataset',
              'synthetic',
              '--rows',
              '40',
              '--quiet',
              '--output',
              'cand/report.md',
            ],
            dir,
          )
        ).code,
      ).toBe(0)
      const qa = modelQaArgs('data-agent', server.baseUrl, 'large', '--limit', '2', '--quiet')
      const asked = await runCli(qa, dir, { QA_KEY: KEY })
      expect(asked.code, asked.stderr).toBe(0)
      const samples = ['positive', 'negative', 'neutral'].flatMap((label, k) =>
        Array.from({ length: [45, 28, 27][k]! }, (_, i) => JSON.stringify({ id: `${k}-${i}`, sentiment: label })),
      )
      await writeFile(join(dir, 's.jsonl'), `${samples.join('\n')}\n`)
      await writeFile(
        join(dir, 'spec.json'),
        JSON.stringify({
          properties: [{ name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 } }],
        }),
      )
      expect(
        (
          await runCli(
            [
              'conformance',
              '--samples',
              's.jsonl',
              '--spec',
              'spec.json',
              '--output',
              'conf/c.md',
              '--output-json',
              'conf/c.json',
            ],
            dir,
          )
        ).code,
      ).toBe(0)

      const page = await browser.context.newPage()
      page.setDefaultTimeout(10_000)
      // The repair run against the baseline: the changed agent (noop) fixed nothing, so every right cell is now missed.
      const repair = await startView(['cand', '--port', '0', '--against', 'base'], dir)
      try {
        await page.goto(repair.url)
        const changed = await page.locator('#changes tbody tr').first().innerText()
        expect(changed).toMatch(
          /noop · synthetic · synthetic · trial 1\s+incorrect · F1 0\.667\s+incorrect · F1 0\.000\s+worse\s+10\s*$/,
        )
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
        // Its transcript: the model's tool calls with their arguments, the agent's own SQL with a preview of its rows.
        const all = (await page.locator('main').textContent())! // calls out of view are not laid out: no innerText
        expect(all).toContain('{"query":"SELECT count(*) AS n FROM events"}')
        expect(all).toMatch(/The agent's own tools \(\d+\)/)
        expect(all).toMatch(/SELECT count\(\*\) AS n FROM events[\s\S]*100000/)
        expect(main).toMatch(/Answer and verdict\s+incorrect\s+expected [\d.]+ \(±[\d.]+\), found 100000 \(value\)/)
        for (const path of ['', 'runs/0', 'runs/1'])
          expect(await (await fetch(`${questions.url}${path}`)).text()).not.toContain(KEY)
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

  it('a gateway run with a streamed in-process agent and a cmd: agent calling tools on a loopback provider', async () => {
    await withTempDir(async (dir) => {
      const fixtures = resolve(import.meta.dirname, '../gateway/fixtures')
      const argv = [
        'run',
        '--dataset',
        'synthetic',
        '--rows',
        '6',
        '--quiet',
        '--output',
        join(dir, 'r/r.md'),
        '--llm',
        tools.baseUrl,
        '--llm-key-env',
        'VIEW_KEY',
        '--cache',
        'off',
      ]
      const ran = await runCli(
        [...argv, '--no-isolate', '--agent', './tool-agent.mjs', '--agent', 'cmd:node tool_cmd_agent.mjs'],
        fixtures,
        { VIEW_KEY: KEY },
      )
      expect(ran.code, ran.stderr).toBe(0)
      const served = await startView(['r', '--port', '0'], dir)
      const page = await browser.context.newPage()
      page.setDefaultTimeout(10_000)
      try {
        await page.goto(served.url)
        expect(await page.locator('#runs tbody tr').allInnerTexts()).toEqual([
          expect.stringMatching(/tool-agent · synthetic.*kept$/),
          expect.stringMatching(/tool-cmd · synthetic.*kept$/),
        ])
        // The streamed in-process agent: system prompt, the tools offered, both tool calls assembled from deltas.
        await page.goto(`${served.url}runs/0`)
        // Each call is scrolled to first: calls out of view are not laid out (content-visibility: auto).
        const callText = async (i: number) => {
          const call = page.locator('#transcript ~ .call').nth(i)
          await call.scrollIntoViewIfNeeded()
          return call.innerText()
        }
        const streamed = await callText(0)
        expect(streamed).toMatch(
          /call 1\s+live\s+m-tools\s+openai-chat \/chat\/completions · streamed\s+status 200\s+11 in · 7 out tokens/,
        )
        expect(streamed).toContain('Repair the table.')
        expect(streamed).toMatch(/tool call\s+sql\s+call_1\s+\{"query":"SELECT count\(\*\) FROM t"\}/)
        expect(streamed).toMatch(/tool call\s+describe\s+call_2\s+\{"table":"t"\}/)
        const second = await callText(1)
        expect(second).toMatch(/tool\s+answers call_1\s+rows for sql/)
        // The cmd: agent, not streamed.
        await page.goto(`${served.url}runs/1`)
        const plain = await callText(0)
        expect(plain).toMatch(/openai-chat \/chat\/completions\s+status 200/)
        expect(plain).not.toContain('streamed')
        expect(plain).toMatch(/tool call\s+sql\s+call_1/)
        for (const path of ['', 'runs/0', 'runs/1'])
          expect(await (await fetch(`${served.url}${path}`)).text()).not.toContain(KEY)
      } finally {
        await page.close()
        expect((await served.stop()).code).toBe(0)
      }
    })
  }, 120_000)
})
