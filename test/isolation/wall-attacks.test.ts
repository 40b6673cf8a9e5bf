import { cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeSandbox } from '../../src/isolation/sandbox/probe.js'
import { counts, runCliProcess, WallProject } from './wall-project.js'

// Every wall attack of issue 25, through the built CLI run as a real process (the agent's parent is a real
// harness it could signal), under both levels. Under `sandbox` each attack gets what noop gets, or a refusal to
// start that names the link; under `process` the same, except that command agents are unrestricted there and
// the records say so.

const sandboxWorks = probeSandbox().ok
const project = new WallProject()
afterAll(() => project.remove())

/** Attacks that need no link in the agent's folder: one run per level holds them all. */
const ATTACKS: Record<string, string> = {
  'noop-ref': 'return null',
  // A package laid out as pnpm does: node_modules/dataforge-evals -> .pnpm/dataforge-evals@…/node_modules/dataforge-evals
  'pnpm-layout': `return read('node_modules/.pnpm/dataforge-evals@0.1.0/node_modules/dataforge-evals/datasets/hospital/clean.csv') ?? read('node_modules/dataforge-evals/datasets/hospital/clean.csv')`,
  'nested-layout': `return read('node_modules/x/node_modules/dataforge-evals/datasets/hospital/clean.csv') ?? read('node_modules/@scope/y/node_modules/dataforge-evals/datasets/hospital/clean.csv')`,
  // The harness's command line names the data (--data-dir); its environment may too.
  'proc-ppid': `const a = read('/proc/' + process.ppid + '/cmdline'); const b = read('/proc/' + process.ppid + '/environ'); const hit = [a, b].find((t) => t && t.includes(DATA)); return hit ? '/proc/<ppid> names the data folder' : null`,
  'kill-harness': `for (const pid of [process.ppid, -process.ppid]) attempt(() => process.kill(pid, 'SIGKILL')); return null`,
  'stop-harness': `for (const pid of [process.ppid, -process.ppid]) attempt(() => process.kill(pid, 'SIGSTOP')); return null`,
  'trace-events': `attempt(() => { const t = createRequire(import.meta.url)('node:trace_events').createTracing({ categories: ['node', 'v8'] }); t.enable() }); return null`,
  'env-leak': `const hits = Object.entries(process.env).filter(([k, v]) => /^npm_|^DATAFORGE_/i.test(k) || String(v).includes(DATA) || String(v).includes('sk-real-secret')); return hits.length ? 'env: ' + hits.map(([k]) => k).join(',') : null`,
  'exists-oracle': `const r = attempt(() => fs.realpathSync(CLEAN)) ?? attempt(() => fs.realpathSync.native(CLEAN)) ?? attempt(() => createRequire(import.meta.url).resolve(CLEAN)); return r ? 'learned that ' + r + ' exists' : null`,
  'absolute-path': 'return read(CLEAN)',
}

/** Attacks through a link in the agent's folder: the permission model refuses them; the sandbox lets them lead nowhere. */
const LINK_ATTACKS: Record<string, { link: string; target: (dir: string) => string; body: string }> = {
  'symlink-absolute': { link: 'abs.csv', target: () => project.cleanCsv, body: `return read('abs.csv')` },
  'symlink-relative': {
    link: 'rel.csv',
    target: (dir) => relative(dir, project.cleanCsv),
    body: `return read('rel.csv')`,
  },
  'symlink-root': {
    link: 'root',
    target: () => '/',
    body: `return read('root' + CLEAN) ?? ((t) => (t && t.includes(DATA) ? 'root/proc/<ppid>/cmdline names the data folder' : null))(read('root/proc/' + process.ppid + '/cmdline'))`,
  },
}

const agentPaths: Record<string, string> = {}
let pythonAgent: string

beforeAll(() => {
  for (const [name, body] of Object.entries(ATTACKS)) agentPaths[name] = project.agent(name, body)
  // pnpm: the store folder and the top-level link to it, holding the clean CSV as the real package does.
  const pnpm = join(
    project.dirOf('pnpm-layout'),
    'node_modules/.pnpm/dataforge-evals@0.1.0/node_modules/dataforge-evals',
  )
  mkdirSync(join(pnpm, 'datasets/hospital'), { recursive: true })
  writeFileSync(join(pnpm, 'package.json'), '{"name":"dataforge-evals"}')
  cpSync(project.cleanCsv, join(pnpm, 'datasets/hospital/clean.csv'))
  symlinkSync(
    '.pnpm/dataforge-evals@0.1.0/node_modules/dataforge-evals',
    join(project.dirOf('pnpm-layout'), 'node_modules/dataforge-evals'),
  )
  // Nested: another package's own node_modules, and one inside a scope.
  for (const holder of ['node_modules/x', 'node_modules/@scope/y']) {
    const nested = join(project.dirOf('nested-layout'), holder, 'node_modules/dataforge-evals/datasets/hospital')
    mkdirSync(nested, { recursive: true })
    writeFileSync(join(project.dirOf('nested-layout'), holder, 'package.json'), '{"name":"x"}')
    cpSync(project.cleanCsv, join(nested, 'clean.csv'))
  }
  for (const [name, a] of Object.entries(LINK_ATTACKS)) {
    agentPaths[name] = project.agent(name, a.body)
    symlinkSync(a.target(project.dirOf(name)), join(project.dirOf(name), a.link))
  }
  agentPaths['hard-link'] = project.agent('hard-link', `return read('hard.csv')`)
  linkSync(project.cleanCsv, join(project.dirOf('hard-link'), 'hard.csv'))
  // A Python command agent that opens the clean CSV by its absolute path (example_agent.py's protocol, inline).
  mkdirSync(join(project.root, 'agents/py'), { recursive: true })
  pythonAgent = join(project.root, 'agents/py/steal.py')
  writeFileSync(
    pythonAgent,
    `import json, sys
print(json.dumps({"type": "ready", "protocol": 1, "name": "py-steal", "capabilities": ["repair"]}), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    try:
        with open(${JSON.stringify(project.cleanCsv)}) as f:
            leaked = f.read(60)
        print(json.dumps({"type": "error", "id": msg["id"], "message": "LEAKED " + leaked}), flush=True)
    except OSError:
        print(json.dumps({"type": "result", "id": msg["id"], "fixes": []}), flush=True)
`,
  )
})

const env = {
  // What an npm script and a CI job put in the harness's environment.
  npm_lifecycle_script: `dataforge-evals run --clean-csv ${project.cleanCsv}`,
  npm_config_user_agent: 'npm/10',
  DATAFORGE_DATA_DIR: project.dataDir,
  OPENAI_API_KEY: 'sk-real-secret-key',
}

const run = (level: string, agents: string[]) =>
  runCliProcess(
    [
      '--isolate',
      level,
      '--agent',
      agents.join(','),
      '--dataset',
      'hospital',
      '--data-dir',
      project.dataDir,
      '--timeout-s',
      '60',
    ],
    project.root,
    env,
  )

for (const level of ['sandbox', 'process'] as const) {
  describe.skipIf(level === 'sandbox' && !sandboxWorks)(`--isolate ${level}`, () => {
    it('layouts, /proc/<ppid>, kill and stop of the harness, trace_events, env leaks, existence oracles: what noop gets; the run goes on', async () => {
      const res = await run(level, [...Object.keys(ATTACKS).map((n) => agentPaths[n]!), `cmd:python3 ${pythonAgent}`])
      expect(res.signal, res.stderr).toBeNull()
      expect(res.code, res.stderr).toBe(0)
      expect(res.reportWritten).toBe(true)
      const runs = res.runs()
      const noop = runs.find((r) => r.agent === 'noop-ref')!
      expect(noop.fn).toBeGreaterThan(0)
      for (const name of Object.keys(ATTACKS)) {
        const r = runs.find((x) => x.agent === name)
        if (level === 'process' && name === 'absolute-path') continue // checked below: the permission model's doing
        expect({ name, ...counts(r!) }).toEqual({ name, ...counts(noop) })
        expect(r!.isolation).toMatchObject({
          level,
          tool: level === 'sandbox' ? 'bubblewrap' : 'node-permission-model',
        })
      }
      expect(counts(runs.find((x) => x.agent === 'absolute-path')!)).toEqual(counts(noop))
      const py = runs.find((r) => r.agent === 'py-steal')!
      if (level === 'sandbox') {
        expect(counts(py)).toEqual(counts(noop))
        expect(py.isolation).toMatchObject({ level: 'sandbox', tool: 'bubblewrap', files: 'sandbox' })
      } else {
        // Without the sandbox a command agent can read what your user can: the record says so.
        expect(py.isolation).toEqual({ level: 'process', tool: null, version: null, files: 'unrestricted' })
      }
      for (const name of Object.keys(ATTACKS))
        expect(readdirSync(project.dirOf(name)).filter((f) => f.startsWith('node_trace'))).toEqual([])
      const md = readFileSync(join(res.out, 'report.md'), 'utf8')
      expect(md).toMatch(
        level === 'sandbox'
          ? /- isolation: .*noop-ref: sandbox \(bubblewrap [\d.]+\)/
          : /- isolation: .*noop-ref: process \(node-permission-model v\d/,
      )
    }, 180_000)

    it(level === 'sandbox'
      ? 'symlinks (absolute, relative, to /) lead nowhere: what noop gets'
      : 'symlinks (absolute, relative, to /) are refused, naming the link: exit 2 before any trial', async () => {
      if (level === 'sandbox') {
        const res = await run(
          level,
          ['noop-ref', ...Object.keys(LINK_ATTACKS)].map((n) => agentPaths[n]!),
        )
        expect(res.code, res.stderr).toBe(0)
        const runs = res.runs()
        const noop = runs.find((r) => r.agent === 'noop-ref')!
        for (const name of Object.keys(LINK_ATTACKS))
          expect({ name, ...counts(runs.find((r) => r.agent === name)!) }).toEqual({ name, ...counts(noop) })
        return
      }
      for (const [name, a] of Object.entries(LINK_ATTACKS)) {
        const res = await run(level, [agentPaths[name]!])
        expect(res.code, res.stderr).toBe(2)
        expect(res.stderr).toContain(`${join(project.dirOf(name), a.link)} is a symbolic link to`)
        expect(existsSync(join(res.out, 'runs.jsonl'))).toBe(false)
      }
    }, 180_000)

    it('a hard link to the clean CSV is refused, naming the link and the data file: exit 2 before any trial', async () => {
      const res = await run(level, [agentPaths['noop-ref']!, agentPaths['hard-link']!])
      expect(res.code, res.stderr).toBe(2)
      expect(res.stderr).toContain(
        `${join(project.dirOf('hard-link'), 'hard.csv')} is a hard link to the run's data file ${project.cleanCsv}`,
      )
      expect(res.stderr.trim().split('\n')).toHaveLength(1)
      expect(existsSync(join(res.out, 'runs.jsonl'))).toBe(false)
    }, 60_000)
  })
}
