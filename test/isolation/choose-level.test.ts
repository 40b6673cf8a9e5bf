import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { agentEnv } from '../../src/isolation/agent-env.js'
import { probeSandbox } from '../../src/isolation/sandbox/probe.js'
import { isolateOption } from '../../src/isolation/wall.js'
import { runCliProcess, WallProject } from './wall-project.js'

// Choosing the wall: `--isolate sandbox|process|none`, the default, and what a missing or failing sandbox does.

const sandboxWorks = probeSandbox().ok
const project = new WallProject()
afterAll(() => project.remove())
const noop = project.agent('plain', 'return null')
const args = (...extra: string[]) => [...extra, '--dataset', 'hospital', '--data-dir', project.dataDir]
// A stand-in for a machine without bubblewrap (the probe looks for this binary instead of bwrap).
const noBwrap = { DATAFORGE_BWRAP: join(project.root, 'no-such-bwrap') }

describe('bad input: exit 2 before any trial, one line naming what is missing and how to fall back', () => {
  it('--isolate sandbox without bwrap', async () => {
    const res = await runCliProcess(args('--isolate', 'sandbox', '--agent', noop), project.root, noBwrap)
    expect(res.code).toBe(2)
    const lines = res.stderr.trim().split('\n')
    expect(lines, res.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(
      /--isolate sandbox: bubblewrap \(.*no-such-bwrap\) is not on PATH \(Debian\/Ubuntu: apt-get install bubblewrap\); install it, or run with --isolate process/,
    )
    expect(existsSync(join(res.out, 'runs.jsonl'))).toBe(false)
  }, 60_000)

  it('a bwrap that cannot start a sandbox', async () => {
    const fake = join(project.root, 'bin/bwrap')
    mkdirSync(join(project.root, 'bin'), { recursive: true })
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.0.1"; exit 0; fi\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n',
      { mode: 0o755 },
    )
    const res = await runCliProcess(args('--isolate', 'sandbox', '--agent', noop), project.root, {
      DATAFORGE_BWRAP: fake,
    })
    expect(res.code).toBe(2)
    expect(res.stderr.trim().split('\n')).toHaveLength(1)
    expect(res.stderr).toContain(
      'bubblewrap 0.0.1 cannot start a sandbox here (bwrap: No permissions to creating new namespace; user namespaces may be disabled); install it, or run with --isolate process',
    )
  }, 60_000)

  it.skipIf(!sandboxWorks)(
    'a command whose interpreter the sandbox cannot mount',
    async () => {
      const res = await runCliProcess(
        args('--isolate', 'sandbox', '--agent', 'cmd:no-such-interpreter-xyz agent.py'),
        project.root,
      )
      expect(res.code).toBe(2)
      expect(res.stderr.trim().split('\n')).toHaveLength(1)
      expect(res.stderr).toContain(
        `the sandbox cannot mount the agent's interpreter: "no-such-interpreter-xyz" is not an executable on PATH`,
      )
    },
    60_000,
  )

  it('--agent-network none without the sandbox, and unknown levels', async () => {
    const res = await runCliProcess(
      args('--isolate', 'process', '--agent-network', 'none', '--agent', noop),
      project.root,
    )
    expect(res.code).toBe(2)
    expect(res.stderr).toContain(
      "--agent-network none needs the OS sandbox (--isolate sandbox, bubblewrap); Node's permission model cannot cut the network",
    )
    const bad = await runCliProcess(args('--isolate', 'jail', '--agent', noop), project.root)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--isolate: "jail" is not a level; use sandbox, process or none')
    const secret = await runCliProcess(args('--agent-env', 'npm_lifecycle_script', '--agent', noop), project.root)
    expect(secret.code).toBe(2)
    expect(secret.stderr).toContain(
      '--agent-env npm_lifecycle_script: not passed on (npm_* variables spell out the command that started the run)',
    )
  }, 60_000)
})

describe('the default', () => {
  it('without bwrap: process, with one warning line naming what is missing; the run goes on', async () => {
    const res = await runCliProcess(args('--agent', noop), project.root, noBwrap)
    expect(res.code, res.stderr).toBe(0)
    const warnings = res.stderr.split('\n').filter((l) => l.startsWith('warning: no OS sandbox'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('is not on PATH')
    expect(warnings[0]).toContain('--isolate process')
    expect(res.runs()[0]!.isolation).toMatchObject({ level: 'process', tool: 'node-permission-model' })
  }, 60_000)

  it.skipIf(!sandboxWorks)(
    'with bwrap: sandbox, no warning; --isolate none runs the module in process',
    async () => {
      const res = await runCliProcess(args('--agent', noop), project.root)
      expect(res.code, res.stderr).toBe(0)
      expect(res.stderr).not.toContain('warning')
      expect(res.runs()[0]!.isolation).toMatchObject({ level: 'sandbox', tool: 'bubblewrap', files: 'sandbox' })
      const none = await runCliProcess(args('--isolate', 'none', '--agent', noop), project.root)
      expect(none.code, none.stderr).toBe(0)
      expect(none.runs()[0]).toMatchObject({
        isolated: false,
        isolation: { level: 'none', tool: null, version: null, files: 'all' },
      })
    },
    60_000,
  )

  it.skipIf(!sandboxWorks)(
    "the run's data inside the agent's folder is hidden from it (an agent at the project's root)",
    async () => {
      const path = join(project.root, 'root-agent.mjs')
      writeFileSync(
        path,
        `import fs from 'node:fs'
export default { name: 'root-agent', run() {
  for (const p of [${JSON.stringify(project.cleanCsv)}, 'data/hospital/clean.csv']) { try { if (fs.readFileSync(p, 'utf8').length) throw new Error('LEAKED ' + p) } catch (e) { if (String(e.message).startsWith('LEAKED')) throw e } }
  return []
} }
`,
      )
      for (const level of ['sandbox', 'process']) {
        const res = await runCliProcess(args('--isolate', level, '--agent', path), project.root)
        expect(res.code, res.stderr).toBe(0)
        expect(res.runs()[0]).toMatchObject({ status: 'ok', tp: 0, fp: 0 })
      }
    },
    60_000,
  )
})

describe('options', () => {
  it("the runners' isolate: option", () => {
    expect(isolateOption(undefined)).toEqual({ isolate: true, level: 'auto' })
    expect(isolateOption(true)).toEqual({ isolate: true, level: 'auto' })
    expect(isolateOption(false)).toEqual({ isolate: false, level: 'auto' })
    expect(isolateOption('none')).toEqual({ isolate: false, level: 'auto' })
    expect(isolateOption('sandbox')).toEqual({ isolate: true, level: 'sandbox' })
    expect(isolateOption('process')).toEqual({ isolate: true, level: 'process' })
    expect(() => isolateOption('jail')).toThrow(
      `isolate: "jail" is not a level; use true, false, 'sandbox', 'process' or 'none'`,
    )
  })

  it("the agent's environment: an allow-list, the gateway's four variables only when the harness sets them", () => {
    const from = {
      PATH: '/usr/bin',
      LANG: 'C.UTF-8',
      HOME: '/home/u',
      npm_lifecycle_script: 'x --clean-csv /d/c.csv',
      DATAFORGE_DATA_DIR: '/d',
      OPENAI_API_KEY: 'sk-real',
      GROQ_API_KEY: 'gsk',
      NODE_OPTIONS: '--require x',
      MY_TOKEN: 't',
    }
    expect(agentEnv({ from, sandboxed: false })).toEqual({ PATH: '/usr/bin', LANG: 'C.UTF-8', HOME: '/home/u' })
    expect(
      agentEnv({
        from,
        sandboxed: true,
        pass: ['MY_TOKEN'],
        set: {
          OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1',
          OPENAI_API_KEY: 'trial-token',
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000',
          ANTHROPIC_API_KEY: 'trial-token',
          OTHER: 'no',
        },
      }),
    ).toEqual({
      PATH: '/usr/bin',
      LANG: 'C.UTF-8',
      HOME: '/tmp',
      TMPDIR: '/tmp',
      MY_TOKEN: 't',
      OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1',
      OPENAI_API_KEY: 'trial-token',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000',
      ANTHROPIC_API_KEY: 'trial-token',
    })
  })
})
