import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RepairAgent } from '../../src/core/agent.js'
import { AgentProcess } from '../../src/isolation/agent-process.js'
import { runEvaluation } from '../../src/run/run-evaluation.js'
import { mockAgent } from '../../src/testing/mock-oracle.js'
import { cliCommand } from '../helpers/cli-child.js'
import { repoRoot } from '../helpers/vitest-run.js'
import { readRuns } from '../helpers/runs.js'

const agents = resolve(repoRoot, 'test/fixtures/agents')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dataforge-inproc-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** The real CLI in its own process (so `process.exit` and escaped errors are real). */
function cliProcess(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const [node, ...cli] = cliCommand()
  return new Promise((done) => {
    execFile(node!, [...cli, ...args], { cwd: dir, timeout: 120_000 }, (error, _out, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
    )
  })
}

describe('in-process agents (--no-isolate): what JavaScript allows', () => {
  it('process.exit, a throw in a timer and an unhandled rejection fail their own trial; finished trials are written; exit 1', async () => {
    const list = ['noop', 'exits', 'timer-throws', 'rejects', 'timer-chain']
      .map((n) => join(agents, `${n}.ts`))
      .join(',')
    const res = await cliProcess([
      'run',
      '--no-isolate',
      '--agent',
      list,
      '--dataset',
      'hospital',
      '--quiet',
      '--timeout-s',
      '20',
    ])
    expect(res.code, res.stderr).toBe(1)
    const runs = readRuns(join(dir, 'reports/run/runs.jsonl'))
    const byAgent = new Map(runs.map((r) => [r.agent, r]))
    expect([...byAgent.keys()].sort()).toEqual(['exits', 'noop-module', 'rejects', 'timer-chain', 'timer-throws'])
    expect(byAgent.get('noop-module')).toMatchObject({ status: 'ok', isolated: false })
    expect(byAgent.get('timer-chain')).toMatchObject({ status: 'ok', isolated: false })
    expect(byAgent.get('exits')).toMatchObject({
      status: 'failed',
      failureKind: 'agent_exit',
      failureMessage: 'agent code called process.exit(0)',
    })
    expect(byAgent.get('timer-throws')).toMatchObject({
      status: 'failed',
      failureKind: 'agent_crash',
      failureMessage: 'uncaught exception in agent code: Error: thrown in a timer',
    })
    expect(byAgent.get('rejects')).toMatchObject({
      status: 'failed',
      failureKind: 'agent_crash',
      failureMessage: 'unhandled rejection in agent code: Error: nobody handles this',
    })
  }, 130_000)
})

describe('oracle runs are marked however they are reached', () => {
  it('an agent that calls itself custom but answers with the oracle is recorded as oracle', async () => {
    const sneaky: RepairAgent = { name: 'sneaky', kind: 'custom', run: (task, ctx) => mockAgent.run(task, ctx) }
    const honest: RepairAgent = { name: 'honest', kind: 'custom', run: () => [] }
    const { records } = await runEvaluation({
      agents: [sneaky, honest],
      datasets: [{ id: 'synthetic', rows: 20 }],
      trials: 1,
      seed: 1,
      timeoutMs: null,
      passF1: 1,
      provenance: { projectCommit: null, runDateUtc: '2026-01-01T00:00:00Z' },
    })
    expect(records.map((r) => [r.agent, r.agentKind, r.f1])).toEqual([
      ['sneaky', 'oracle', 1],
      ['honest', 'custom', 0],
    ])
    // The oracle's fixes are the truth: not persisted.
    expect(records[0]!.fixes).toBeNull()
  })
})

describe('the protocol channel', () => {
  const script = async (name: string, body: string) => {
    const path = join(dir, name)
    await writeFile(path, body)
    return path
  }

  it('a line that is not a protocol message fails the request as invalid_output and ends the process', async () => {
    const path = await script(
      'chatty.py',
      'import sys, json\nprint(json.dumps({"type": "ready"}), flush=True)\nfor line in sys.stdin:\n    print("here are your fixes!", flush=True)\n',
    )
    const p = new AgentProcess({ command: 'python3', args: [path], cwd: dir, env: process.env, log: () => undefined })
    await p.ready
    await expect(p.request({ type: 'close' })).rejects.toMatchObject({
      kind: 'invalid_output',
      message: 'agent wrote a line that is not JSON: here are your fixes!',
    })
    expect(p.alive).toBe(false)
  })

  it('an answer to a request that is not pending is invalid_output', async () => {
    const path = await script(
      'confused.py',
      'import sys, json\nprint(json.dumps({"type": "ready"}), flush=True)\nfor line in sys.stdin:\n    print(json.dumps({"type": "closed", "id": 99}), flush=True)\n',
    )
    const p = new AgentProcess({ command: 'python3', args: [path], cwd: dir, env: process.env, log: () => undefined })
    await expect(p.request({ type: 'close' })).rejects.toMatchObject({
      kind: 'invalid_output',
      message: 'agent answered request 99, which is not pending',
    })
  })

  it('an agent that exits before answering is agent_exit with its code; its stderr reaches the log first', async () => {
    const path = await script(
      'quits.py',
      'import sys, json\nprint(json.dumps({"type": "ready"}), flush=True)\nsys.stdin.readline()\nprint("giving up", file=sys.stderr, flush=True)\nsys.exit(3)\n',
    )
    let log = ''
    const p = new AgentProcess({ command: 'python3', args: [path], cwd: dir, env: process.env, log: (c) => (log += c) })
    await expect(p.request({ type: 'close' })).rejects.toMatchObject({
      kind: 'agent_exit',
      message: 'agent process exited with code 3',
    })
    expect(log).toBe('giving up\n')
  })

  it('an aborted request kills the process and fails with the abort reason', async () => {
    const path = await script(
      'sleeps.py',
      'import sys, json, time\nprint(json.dumps({"type": "ready"}), flush=True)\nsys.stdin.readline()\ntime.sleep(60)\n',
    )
    const p = new AgentProcess({ command: 'python3', args: [path], cwd: dir, env: process.env, log: () => undefined })
    await p.ready
    const controller = new AbortController()
    const pending = p.request({ type: 'close' }, controller.signal)
    controller.abort(new Error('not an AgentFailure'))
    await expect(pending).rejects.toMatchObject({ kind: 'timeout' })
    expect(p.alive).toBe(false)
  })
})
