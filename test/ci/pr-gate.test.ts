import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installPacked } from '../helpers/packed-project.js'
import { tables } from '../helpers/markdown-tables.js'

// A pull request gated end to end: a consumer project (this package installed from its packed tarball) in a git
// repository whose `main` holds an eval and its baseline; branches change the agent; the eval run, as GitHub
// Actions runs it, writes the job summary and pr-comment.md and prints the workflow commands.

const run = promisify(execFile)

let work: string
let project: string

const EVAL = `import { expect } from 'vitest'
import { readFileSync } from 'node:fs'
import { baselineAgent, noopAgent } from 'dataforge-evals'
import { evalCase } from 'dataforge-evals/vitest'

// The agent under review: agent.json says which version of it this branch ships.
const { version } = JSON.parse(readFileSync(new URL('../agent.json', import.meta.url), 'utf8'))
const agent = { ...(version === 'good' ? baselineAgent : noopAgent), name: 'fixer', kind: 'custom' as const }

evalCase('hospital repair', { dataset: 'hospital', agent, trials: 8, seed: 1 }, async ({ task, agent }) => {
  const output = await agent.run(task)
  expect(output).toRepairCells(task, { minF1: 0 })
})
`

const CONFIG = `import { defineConfig } from 'vitest/config'
import DataforgeReporter from 'dataforge-evals/reporter'

export default defineConfig({
  test: {
    include: ['evals/**/*.eval.ts'],
    includeTaskLocation: true, // annotations carry line= too
    setupFiles: ['dataforge-evals/vitest/setup'],
    reporters: ['default', new DataforgeReporter({ formats: ['markdown', 'json', 'jsonl'] })],
  },
})
`

async function git(...args: string[]): Promise<string> {
  return (
    await run('git', args, {
      cwd: project,
      env: {
        ...cleanEnv(),
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.test',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.test',
      },
    })
  ).stdout
}

/** The parent is a Vitest worker: its VITEST_* variables must not reach the child run. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !k.startsWith('VITEST') &&
        k !== 'NODE_OPTIONS' &&
        !k.startsWith('GITHUB_') &&
        k !== 'DATAFORGE_UPDATE_BASELINE',
    ),
  )
}

async function evals(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(join(project, 'node_modules/.bin/vitest'), ['run'], {
      cwd: project,
      env: { ...cleanEnv(), ...env, NO_COLOR: '1' },
      maxBuffer: 32 * 1024 * 1024,
    })
    return { code: 0, ...r }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-prgate-'))
  project = join(work, 'project')
  await mkdir(join(project, 'evals'), { recursive: true })
  await installPacked(work, project, { beside: ['vitest'], manifest: { name: 'gated-project', type: 'module' } })
  await writeFile(join(project, '.gitignore'), 'node_modules/\nevals/__reports__/*\n!evals/__reports__/baseline.json\n')
  await writeFile(join(project, 'vitest.config.ts'), CONFIG)
  await writeFile(join(project, 'evals/repair.eval.ts'), EVAL)
  await writeFile(join(project, 'agent.json'), '{ "version": "good" }\n')
  await git('init', '-q', '-b', 'main')
  // main's job refreshes the baseline on purpose and commits it.
  const refresh = await evals({ DATAFORGE_UPDATE_BASELINE: '1' })
  expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0)
  await git('add', '-A')
  await git('commit', '-qm', 'eval and its baseline')
}, 300_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('a pull request gated on the committed baseline', () => {
  it('main commits the baseline', async () => {
    expect(await git('ls-files')).toContain('evals/__reports__/baseline.json')
  })

  it('a branch that makes the agent worse exits 1, with the summary, the PR comment and the ::error line naming the group', async () => {
    await git('checkout', '-q', '-b', 'worse', 'main')
    await writeFile(join(project, 'agent.json'), '{ "version": "bad" }\n')
    await git('commit', '-qam', 'a worse agent')
    const summaryPath = join(work, 'summary-worse.md')
    const r = await evals({
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summaryPath,
      DATAFORGE_REPORT_URL: 'https://example.test/run/1/artifacts',
    })
    expect(r.code, r.stdout + r.stderr).toBe(1)
    // Every test passed its assertions: the exit code is the gate's, on the baseline comparison alone.
    expect(r.stdout).toMatch(/Tests\s+8 passed/)
    const group = 'fixer · hospital'
    const error = `${r.stdout}\n${r.stderr}`.split('\n').find((l) => l.startsWith('::error '))
    expect(error).toBeDefined()
    expect(error).toMatch(
      /^::error title=fixer · hospital[^,]*,file=evals\/repair\.eval\.ts,line=10::fixer · hospital.*(regression|deterministic drop) \(F1\)/,
    )

    const summary = await readFile(summaryPath, 'utf8')
    expect(summary).toMatch(/^## dataforge-evals \(vitest\)\n\n❌ \*\*Gate failed\*\*/)
    const [failing, board] = tables(summary)
    expect(failing!.rows.map((row) => row[0]!.text)).toEqual([expect.stringContaining(group)])
    expect(failing!.rows[0]![1]!.text).toBe('F1')
    // A deterministic agent: one case whose trials are identical on each side is an exact change (docs/statistics.md).
    expect(failing!.rows[0]![5]!.text).toMatch(/^exact \(deterministic change on 1 case/)
    expect(board!.rows).toHaveLength(1)

    const comment = await readFile(join(project, 'evals/__reports__/pr-comment.md'), 'utf8')
    expect(comment).toContain('❌ **Gate failed**')
    const [changed] = tables(comment)
    expect(changed!.rows).toHaveLength(1)
    expect(changed!.rows[0]![0]!.text).toContain(group)
    expect(changed!.rows[0]![6]!.text).toContain('deterministic drop (F1)')
    expect(comment).toContain('[Full HTML report](https://example.test/run/1/artifacts)')
  }, 120_000)

  it('a branch that changes nothing exits 0 and says so', async () => {
    await git('checkout', '-q', '-b', 'docs-only', 'main')
    await writeFile(join(project, 'README.md'), '# gated project\n')
    await git('add', '-A')
    await git('commit', '-qm', 'docs only')
    const summaryPath = join(work, 'summary-same.md')
    const r = await evals({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryPath })
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/^::error/m)
    const summary = await readFile(summaryPath, 'utf8')
    expect(summary).toContain('✅ **Gate passed**')
    expect(tables(summary)).toHaveLength(1) // the leaderboard
    const comment = await readFile(join(project, 'evals/__reports__/pr-comment.md'), 'utf8')
    expect(comment).toContain('No group changed against the baseline (1 compared).')
  }, 120_000)
})
