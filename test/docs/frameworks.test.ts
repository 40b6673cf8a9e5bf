import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { docBlocks, namedPath } from '../helpers/doc-blocks.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { consumerEnv, installPacked } from '../helpers/packed-project.js'
import { finalText, READ_THEN_REPAIR } from '../helpers/tool-model.js'
import { repoRoot } from '../helpers/vitest-run.js'

// docs/frameworks.md's recipes, as a user has them: the package from its packed tarball and each framework from
// npm in one project, every `runnable: recipe` block a file of it. A loopback model calls the agents' tool and
// answers from its output; the evals run recorded, then replayed with the model down. Node 20's versions.

const run = promisify(execFile)

/** The frameworks the page tests, at the newest versions that run on Node 20 (docs/frameworks.md, Versions). */
const FRAMEWORKS = [
  'ai@6.0.325',
  '@ai-sdk/openai@3.0.141',
  '@langchain/openai@1.5.8',
  '@langchain/core@1.4.0',
  '@openai/agents@0.14.3',
]
const SECRET = 'sk-frameworks-test-SECRET-4455667788'
/** A line that warns or reports an error (a framework's, Node's, the harness's), or a thrown error's name. */
const WARNING = /^\W*(npm )?(warn|warning|error)\b|^\(node:\d+\)|\b\w*Error:|AI SDK Warning/im

const CONFIG = `import { defineConfig } from 'vitest/config'
import DataforgeReporter from 'dataforge-evals/reporter'

export default defineConfig({
  test: {
    include: ['evals/**/*.eval.ts'],
    setupFiles: ['dataforge-evals/vitest/setup'],
    reporters: ['default', new DataforgeReporter()],
    testTimeout: 60_000,
  },
})
`
/**
 * Beside the page: the AI SDK's default model, `openai(model)`, which speaks the Responses API (the page's recipe
 * uses `.chat`), in process, streamed and not.
 */
const AI_SDK_RESPONSES = `import { createOpenAI } from '@ai-sdk/openai'
import { generateText, stepCountIs, streamText, tool } from 'ai'
import { expect } from 'vitest'
import { z } from 'zod'
import type { RepairAgent } from 'dataforge-evals'
import { evalCase } from 'dataforge-evals/vitest'
import { INSTRUCTIONS, parseFixes, question, READ_ROWS, readRows } from '../agents/table-tool.js'

const llm = { baseUrl: process.env.MODEL_BASE_URL ?? 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' }

const responsesAgent = (stream: boolean): RepairAgent => ({
  name: stream ? 'ai-sdk-responses-stream' : 'ai-sdk-responses',
  async run(task, ctx) {
    const openai = createOpenAI({ baseURL: ctx.llm!.baseURL, apiKey: ctx.llm!.apiKey })
    const read_rows = tool({
      description: READ_ROWS,
      inputSchema: z.object({ offset: z.number(), limit: z.number() }),
      execute: async ({ offset, limit }) => readRows(task, offset, limit),
    })
    const options = { model: openai('gpt-4.1-mini'), system: INSTRUCTIONS, prompt: question(task), tools: { read_rows }, stopWhen: stepCountIs(5) }
    const text = stream ? await streamText(options).text : (await generateText(options)).text
    return parseFixes(text, task)
  },
})

for (const stream of [false, true]) {
  evalCase(\`responses-api ai-sdk \${stream ? 'streamText' : 'generateText'}\`, { dataset: { id: 'synthetic', rows: 8 }, agent: responsesAgent(stream), llm }, async ({ task, agent }) => {
    expect(await agent.run()).toRepairCells(task, { minF1: 0 })
  })
}
`
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['agents/**/*.ts', 'evals/**/*.ts'],
}

/** Each framework's agents: the wire protocol they speak and their names (default export, streaming export). */
const AGENTS = {
  'ai-sdk': 'openai-chat',
  langchain: 'openai-chat',
  'openai-agents': 'openai-responses',
  anthropic: 'anthropic-messages',
} as const

let work: string
let project: string
let fake: FakeProvider
/** `tsc --noEmit` over the recipes, started once they are written: it runs beside the evals. */
let typecheck: Promise<Ran>
const blocks = docBlocks('docs/frameworks.md').filter((b) => b.kind === 'recipe')

interface Ran {
  code: number
  output: string
}

async function inProject(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  try {
    const r = await run(process.execPath, args, { cwd: project, env, maxBuffer: 32 * 1024 * 1024 })
    return { code: 0, output: `${r.stdout}${r.stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

/** One `vitest run` of the project's evals in a cache mode; the records its reporter wrote. */
async function evals(
  mode: 'record' | 'replay',
  keys: Record<string, string>,
): Promise<{ ran: Ran; records: RunRecord[] }> {
  const reports = join(project, 'evals/__reports__')
  await rm(reports, { recursive: true, force: true })
  const env = {
    ...consumerEnv(),
    ...keys,
    MODEL_BASE_URL: fake.baseUrl,
    DATAFORGE_CACHE: mode,
    DATAFORGE_CACHE_DIR: join(project, '.dataforge-cache'),
  }
  const ran = await inProject([join(project, 'node_modules/vitest/vitest.mjs'), 'run'], env)
  let records: RunRecord[] = []
  try {
    records = readFileSync(join(reports, 'runs.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as RunRecord)
  } catch {
    // no report: the assertions on `ran` say why
  }
  return { ran, records: records.sort((a, b) => a.caseId.localeCompare(b.caseId)) }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules') return []
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-frameworks-'))
  project = join(work, 'project')
  await mkdir(project)
  const zod = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).dependencies.zod as string
  await installPacked(work, project, {
    beside: ['vitest', '@types/node', '@anthropic-ai/sdk'],
    extra: [...FRAMEWORKS, `zod@${zod}`],
  })
  for (const block of blocks) {
    const file = namedPath(block)
    if (!file) throw new Error(`docs/frameworks.md:${block.line}: a recipe block names no file on its first line`)
    await mkdir(dirname(join(project, file)), { recursive: true })
    await writeFile(join(project, file), block.code)
  }
  await writeFile(join(project, 'vitest.config.ts'), CONFIG)
  await writeFile(join(project, 'evals/ai-sdk-responses.eval.ts'), AI_SDK_RESPONSES)
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG))
  typecheck = inProject([join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', project], consumerEnv())
  fake = await new FakeProvider(READ_THEN_REPAIR).start()
}, 240_000)

afterAll(async () => {
  await fake?.stop()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('docs/frameworks.md', () => {
  it('has an agent and an eval for each framework, and the shared tool; every TypeScript and shell block is marked', () => {
    const unmarked = docBlocks('docs/frameworks.md').filter(
      (b) => b.kind === null && /^(ts|typescript|sh|bash)$/.test(b.lang),
    )
    expect(unmarked.map((b) => b.line)).toEqual([])
    expect(blocks.map(namedPath).sort()).toEqual(
      [
        'agents/table-tool.ts',
        ...Object.keys(AGENTS).flatMap((name) => [`agents/${name}-agent.ts`, `evals/${name}.eval.ts`]),
      ].sort(),
    )
  })

  it('records each framework in process (streamed and not) and isolated, then replays with the model down', async () => {
    const before = fake.requests.length
    const recorded = await evals('record', { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET })
    expect(recorded.ran.code, recorded.ran.output).toBe(0)
    expect(recorded.ran.output).not.toMatch(WARNING)
    const records = recorded.records
    expect(records).toHaveLength(3 * Object.keys(AGENTS).length + 2)
    for (const [framework, protocol] of Object.entries(AGENTS)) {
      const mine = records.filter((r) => r.caseId.startsWith(`${framework} `))
      expect(mine.map((r) => r.agent).sort(), framework).toEqual([framework, framework, `${framework}-stream`])
      for (const r of mine) {
        const streamed = r.agent.endsWith('-stream')
        expect([r.caseId, r.status, r.failureMessage]).toEqual([r.caseId, 'ok', null])
        expect(r.usageSource).toBe('gateway')
        expect(r.llmUpstream).toBe('http://127.0.0.1:*/v1')
        expect(r.cached).toBe(false)
        // A tool call, then the answer made from the tool's output.
        expect(
          r.llmCalls.map((c) => [c.protocol, c.stream, c.cache, c.status]),
          r.caseId,
        ).toEqual([
          [protocol, streamed, 'live', 200],
          [protocol, streamed, 'live', 200],
        ])
        expect(r.usage.calls).toBe(2)
        expect(r.usage.promptTokens).toBeGreaterThan(0)
        expect(r.usage.completionTokens).toBeGreaterThan(0)
        expect(r.fixes).toHaveLength(1)
        expect(r.fixes![0]!.newValue).toMatch(/-checked$/)
      }
      const isolated = mine.find((r) => r.caseId.endsWith('isolated'))!
      expect(isolated.isolation?.level, framework).toMatch(/^(sandbox|process)$/)
    }
    const responses = records.filter((r) => r.caseId.startsWith('responses-api '))
    expect(
      responses.map((r) => [r.agent, r.status, r.usage.calls, r.llmCalls.map((c) => [c.protocol, c.stream])]),
    ).toEqual(
      [false, true].map((stream) => [
        stream ? 'ai-sdk-responses-stream' : 'ai-sdk-responses',
        'ok',
        2,
        [
          ['openai-responses', stream],
          ['openai-responses', stream],
        ],
      ]),
    )
    expect(responses.map((r) => r.fixes![0]!.newValue)).toEqual([
      expect.stringMatching(/-checked$/),
      expect.stringMatching(/-checked$/),
    ])
    // The model was asked by the gateway with the key; the agents never had it.
    const asked = fake.requests.slice(before)
    expect(asked.length).toBe(records.reduce((n, r) => n + r.usage.calls, 0))
    for (const request of asked)
      expect(request.headers['authorization'] ?? request.headers['x-api-key']).toMatch(
        new RegExp(`(Bearer )?${SECRET}$`),
      )
    // What the tool returned reached the model: the answer is made from the first row the tool read.
    const answer = recorded.records[0]!.fixes![0]!
    expect(
      finalText(JSON.stringify([{ row: answer.row, [answer.column]: answer.newValue.replace(/-checked$/, '') }])),
    ).toContain(answer.newValue)

    await fake.stop()
    const replayed = await evals('replay', {})
    expect(replayed.ran.code, replayed.ran.output).toBe(0)
    expect(replayed.ran.output).not.toMatch(WARNING)
    expect(replayed.records.map((r) => [r.caseId, r.agent, r.status, r.fixes])).toEqual(
      records.map((r) => [r.caseId, r.agent, r.status, r.fixes]),
    )
    for (const [i, r] of replayed.records.entries()) {
      expect(r.cached, r.caseId).toBe(true)
      expect(r.usageSource).toBe('gateway')
      expect(r.usage).toMatchObject({ calls: 2, cachedCalls: 2, promptTokens: 0, completionTokens: 0 })
      expect(r.usage.cachedPromptTokens).toBe(records[i]!.usage.promptTokens)
      expect(r.usage.cachedCompletionTokens).toBe(records[i]!.usage.completionTokens)
      expect(r.llmCalls.map((c) => [c.protocol, c.stream, c.cache])).toEqual(
        records[i]!.llmCalls.map((c) => [c.protocol, c.stream, 'hit']),
      )
    }
    for (const file of filesUnder(project)) expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET)
  }, 240_000)

  it('every recipe type-checks (strict) against the installed frameworks and package', async () => {
    const r = await typecheck
    expect(r.output).toBe('')
    expect(r.code).toBe(0)
  }, 120_000)
})
