import { afterAll, describe, expect, it } from 'vitest'
import { probeSandbox } from '../../src/isolation/sandbox/probe.js'
import { type CliRun, counts, runCliProcess, WallProject } from './wall-project.js'

// The wall's second adversarial pass (issue 36), through the built CLI run as a real process, at both levels,
// with module, TypeScript and command (Python, shell) agents. Each attack gets what noop gets, or a refusal
// to start that names what it found.

const sandboxWorks = probeSandbox().ok
const project = new WallProject()
afterAll(() => project.remove())

const LEVELS = ['sandbox', 'process'] as const

const run = (level: string, agents: string[], extra: string[] = [], env: Record<string, string> = {}) =>
  runCliProcess(['--isolate', level, '--agent', agents.join(','), '--dataset', 'hospital', '--data-dir', project.dataDir, '--timeout-s', '60', ...extra], project.root, env)

/** The run went on, and every agent scored what noop scored. */
function expectAllLikeNoop(res: CliRun, noopName: string, names: string[]): void {
  expect(res.signal, res.stderr).toBeNull()
  expect(res.code, res.stderr).toBe(0)
  const runs = res.runs()
  const noop = runs.find((r) => r.agent === noopName)!
  expect(noop.fn).toBeGreaterThan(0)
  for (const name of names) {
    const r = runs.find((x) => x.agent === name)
    expect(r, `${name} has a record`).toBeDefined()
    expect({ name, ...counts(r!) }).toEqual({ name, ...counts(noop) })
  }
}

const noop = project.agent('noop-ref', 'return null')

describe('item 1: no inspector or signal path from the agent to the harness', () => {
  const moduleBody = `
    attempt(() => process._debugProcess(process.ppid))
    const before = attempt(() => os.getPriority(process.ppid))
    attempt(() => os.setPriority(process.ppid, 19))
    await sleep(300)
    const after = attempt(() => os.getPriority(process.ppid))
    return after !== before ? 'reniced the harness from ' + before + ' to ' + after : null`
  const agents = [
    noop,
    project.agent('inspect-mjs', moduleBody),
    project.agent('inspect-ts', moduleBody, { ts: true }),
    `cmd:python3 ${project.pythonAgent('inspect-py', 'os.kill(os.getppid(), signal.SIGUSR1)\nreturn None')}`,
    `cmd:sh ${project.shellAgent('inspect-sh', 'kill -USR1 "$PPID"\n  sleep 0.3')}`,
  ]
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(`--isolate ${level}: SIGUSR1 from module, TypeScript, Python and shell agents opens no inspector; a module agent cannot re-nice the harness`, async () => {
      const res = await run(level, agents)
      expect(res.stderr).not.toMatch(/Debugger listening|inspector/i)
      expectAllLikeNoop(res, 'noop-ref', ['inspect-mjs', 'inspect-ts', 'inspect-py', 'inspect-sh'])
    }, 180_000)
  }
})

describe('item 6: descriptors the harness inherited never reach the agent', () => {
  const moduleBody = `
    const buf = Buffer.alloc(60)
    const n = attempt(() => fs.readSync(200, buf, 0, 60, 0))
    return n ? 'fd 200: ' + buf.toString('utf8', 0, n) : null`
  const agents = [
    noop,
    project.agent('fd-mjs', moduleBody),
    project.agent('fd-ts', moduleBody, { ts: true }),
    `cmd:python3 ${project.pythonAgent('fd-py', 'return os.pread(200, 60, 0).decode()')}`,
    `cmd:sh ${project.shellAgent('fd-sh', 'head -c 60 /proc/self/fd/200')}`,
  ]
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(`--isolate ${level}: run … 200<clean.csv: module, TypeScript, Python and shell agents read nothing at fd 200`, async () => {
      const res = await runCliProcess(
        ['--isolate', level, '--agent', agents.join(','), '--dataset', 'hospital', '--data-dir', project.dataDir, '--timeout-s', '60'],
        project.root,
        {},
        120_000,
        { openFiles: { 200: project.cleanCsv } },
      )
      expectAllLikeNoop(res, 'noop-ref', ['fd-mjs', 'fd-ts', 'fd-py', 'fd-sh'])
    }, 180_000)
  }
})
