import { execFile } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockName, type DocBlock, docBlocks, namedPath } from '../helpers/doc-blocks.js'
import { consumerEnv, installPacked } from '../helpers/packed-project.js'
import { repoRoot } from '../helpers/vitest-run.js'

// Every code block the docs mark as runnable runs (docs/development.md has the markers): in one consumer project
// with this package installed from its packed tarball, the `vitest` blocks are its files and run in one
// `vitest run`, every TypeScript block type-checks against the installed types, and each `sh` block runs with the
// installed bin. No key and no network: the blocks use the keyless built-in agents.

const run = promisify(execFile)

const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
/** Pages whose every TypeScript and shell block is marked, runnable or not. */
const FULLY_MARKED = [
  'README.md',
  'docs/first-hour.md',
  'docs/own-agent.md',
  'docs/evals.md',
  'docs/agents.md',
  'docs/conformance.md',
  'docs/reports.md',
  'docs/ci.md',
  'docs/viewer.md',
  'docs/tracing.md',
]
const blocks = pages.flatMap((page) => docBlocks(page))
const of = (kind: DocBlock['kind']) => blocks.filter((b) => b.kind === kind)
const shBlocks = of('sh').map((b) => [blockName(b), b] as const)

/** What the user's own code in a `typecheck` block stands for (README: "prompt() and parseFixes(): your code"). */
const USER_CODE = `import type { AgentTask, Fix } from 'dataforge-evals'

declare global {
  /** The user's prompt for a repair task. */
  function prompt(task: AgentTask): string
  /** The user's parser of a model's reply. */
  function parseFixes(reply: string | null): Fix[]
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
  include: ['**/*.ts'],
  exclude: ['node_modules'],
}

/** A line that warns or reports an error (npm's, Node's, the CLI's), or a thrown error's name. */
const WARNING = /^\W*(npm )?(warn|warning|error)\b|^\(node:\d+\)|\b\w*Error:/im

let work: string
let project: string
/** `tsc --noEmit` over the project, started once the files are written: it runs beside the other blocks. */
let typecheck: Promise<Ran>

interface Ran {
  code: number
  output: string
}

async function inProject(file: string, args: string[]): Promise<Ran> {
  const env = {
    ...consumerEnv(),
    PATH: `${join(work, 'shim')}:${join(project, 'node_modules/.bin')}:${process.env.PATH}`,
    npm_config_offline: 'true',
  }
  try {
    const r = await run(file, args, { cwd: project, env, maxBuffer: 32 * 1024 * 1024 })
    return { code: 0, output: `${r.stdout}${r.stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

/** Where a block lives in the consumer project: the path its first line names, else one made from its page and line. */
function fileOf(block: DocBlock): string {
  const slug = `${block.page.replace(/\.md$/, '').replace(/\W+/g, '-')}-${block.line}`
  if (block.kind === 'typecheck') return `typecheck/${slug}.ts`
  return namedPath(block) ?? `evals/${slug}.eval.ts`
}

/**
 * An `npx` that runs `npx dataforge-evals …` straight from the installed bin and hands anything else to npm's.
 * npm's start-up (0.7 s of CPU a call) is not what the blocks check; test/build/package.test.ts runs the bin
 * through `npm exec` itself.
 */
async function writeNpxShim(): Promise<void> {
  const shim = join(work, 'shim/npx')
  await mkdir(dirname(shim))
  const bin = join(project, 'node_modules/.bin/dataforge-evals')
  await writeFile(
    shim,
    `#!/bin/sh\nif [ "$1" = dataforge-evals ]; then shift; exec '${bin}' "$@"; fi\nPATH='${process.env.PATH}' exec npx "$@"\n`,
    { mode: 0o755 },
  )
}

async function writeBlocks(): Promise<void> {
  const written = new Map<string, DocBlock>()
  for (const block of [...of('vitest'), ...of('typecheck')]) {
    const file = fileOf(block)
    const earlier = written.get(file)
    if (earlier && earlier.code !== block.code)
      throw new Error(`${blockName(block)} and ${blockName(earlier)} both write ${file}, with different code`)
    written.set(file, block)
    await mkdir(dirname(join(project, file)), { recursive: true })
    // A typecheck block is a module of its own even when it imports nothing.
    await writeFile(join(project, file), block.kind === 'typecheck' ? `${block.code}export {}\n` : block.code)
  }
  await writeNpxShim()
  await writeFile(join(project, 'user-code.d.ts'), USER_CODE)
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG))
}

describe('the markers', () => {
  const page = (...lines: string[]) => docBlocks('page.md', lines.join('\n'))

  it('give each fenced block its kind, line and code; an unmarked block has none', () => {
    const found = page(
      '# Page',
      '<!-- runnable: sh -->',
      '```sh',
      'npx dataforge-evals list-agents',
      '```',
      '',
      '```ts',
      'const x = 1',
      '```',
      '<!-- not runnable: a key -->',
      '```sh',
      'x',
      '```',
    )
    expect(found.map((b) => [blockName(b), b.lang, b.kind, b.code])).toEqual([
      ['page.md:3', 'sh', 'sh', 'npx dataforge-evals list-agents\n'],
      ['page.md:7', 'ts', null, 'const x = 1\n'],
      ['page.md:11', 'sh', 'not runnable', 'x\n'],
    ])
  })

  it('fail on a marker that is not right before a fence, on an unknown kind and on a fence left open', () => {
    expect(() => page('<!-- runnable: sh -->', '', '```sh', 'x', '```')).toThrow(
      'page.md:1: the marker "<!-- runnable: sh -->" is not right before a code fence',
    )
    expect(() => page('<!-- runnable: bash -->', '```sh', 'x', '```')).toThrow(
      'page.md:1: unknown runnable kind "bash" (known: vitest, sh, typecheck, recipe)',
    )
    expect(() => page('```sh', 'x')).toThrow('page.md:1: a code fence that never closes')
  })

  it('read the path a file block names in its first line', () => {
    const [named, commented, unnamed] = page(
      '```ts',
      '// evals/a.eval.ts',
      '```',
      '```ts',
      '// evals/b.eval.ts (Vitest)',
      '```',
      '```ts',
      'x',
      '```',
    )
    expect(namedPath(named!)).toBe('evals/a.eval.ts')
    expect(namedPath(commented!)).toBe('evals/b.eval.ts')
    expect(namedPath(unnamed!)).toBeUndefined()
  })
})

describe('the runnable blocks of README.md and docs/', () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'dataforge-docblocks-'))
    project = join(work, 'project')
    await mkdir(project)
    // @types/node as docs/first-hour.md installs it: its agent reads process.env. openai: README's own-agent block
    // uses its SDK, which a user installs beside (it is no dependency of the package).
    await installPacked(work, project, { beside: ['vitest', '@types/node', 'openai'] })
    await writeBlocks()
    typecheck = inProject(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', project])
  }, 240_000)

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  it.each(FULLY_MARKED)('%s marks every TypeScript and shell block', (page) => {
    const unmarked = blocks.filter(
      (b) => b.page === page && b.kind === null && /^(ts|typescript|sh|bash)$/.test(b.lang),
    )
    expect(unmarked.map(blockName)).toEqual([])
  })

  it('finds blocks of each kind, and the config among the files', () => {
    expect(of('vitest').length).toBeGreaterThan(2)
    expect(of('sh').length).toBeGreaterThan(2)
    expect(of('typecheck').length).toBeGreaterThan(1)
    expect(of('vitest').map(fileOf)).toContain('vitest.config.ts')
  })

  it('the vitest blocks run as one project with `vitest run`: every test passes, nothing warns', async () => {
    const r = await inProject(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run'])
    expect(r.code, r.output).toBe(0)
    expect(r.output).toMatch(/Tests\s+\d+ passed/)
    expect(r.output).not.toMatch(/\bfailed\b/)
    expect(r.output).not.toMatch(WARNING)
  }, 120_000)

  it('every TypeScript block type-checks (strict) against the installed package’s types', async () => {
    const r = await typecheck
    expect(r.output).toBe('')
    expect(r.code).toBe(0)
  }, 120_000)

  it.each(shBlocks)(
    '%s runs with the installed bin and exits 0',
    async (_name, block) => {
      const r = await inProject('bash', ['-euo', 'pipefail', '-c', block.code])
      expect(r.code, r.output).toBe(0)
      expect(r.output).not.toMatch(WARNING)
    },
    120_000,
  )
})
