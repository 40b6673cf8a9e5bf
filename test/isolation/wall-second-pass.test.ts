import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { probeSandbox } from '../../src/isolation/sandbox/probe.js'
import { type CliRun, counts, repoRoot, runCliProcess, WallProject } from './wall-project.js'

// The wall's second adversarial pass (issue 36), through the built CLI run as a real process, at both levels,
// with module, TypeScript and command (Python, shell) agents. Each attack gets what noop gets, or a refusal
// to start that names what it found.

const sandboxWorks = probeSandbox().ok
const project = new WallProject()
afterAll(() => project.remove())

const LEVELS = ['sandbox', 'process'] as const

const run = (
  level: string,
  agents: string[],
  opts: {
    extra?: string[]
    env?: Record<string, string>
    openFiles?: Record<number, string>
    dataDir?: string
    cwd?: string
  } = {},
) =>
  runCliProcess(
    [
      '--isolate',
      level,
      '--agent',
      agents.join(','),
      '--dataset',
      'hospital',
      '--data-dir',
      opts.dataDir ?? project.dataDir,
      '--timeout-s',
      '60',
      ...(opts.extra ?? []),
    ],
    opts.cwd ?? project.root,
    opts.env,
    120_000,
    { openFiles: opts.openFiles },
  )

/**
 * Under `sandbox` every attack of `restrictedAt` is held; under `process` those of module and TypeScript agents
 * (command agents run unrestricted there, and the records say so): the run goes on and each scores what noop does.
 */
function restrictedAt(
  level: (typeof LEVELS)[number],
  agents: { specs: string[]; names: string[] },
): { specs: string[]; names: string[] } {
  return level === 'sandbox' ? agents : { specs: agents.specs.slice(0, 3), names: agents.names.slice(0, 2) }
}

/** Four agents (as `attackAgents`) that read these paths, relative to their own folder; each agent's folder. */
function readingAgents(prefix: string, paths: string[]): { specs: string[]; names: string[]; dirs: string[] } {
  const agents = attackAgents(prefix, {
    module: `return ${paths.map((p) => `read(${JSON.stringify(p)})`).join(' ?? ')}`,
    python: `here = os.path.dirname(os.path.abspath(__file__))\nreturn ${paths.map((p) => `read(here + '/' + ${JSON.stringify(p)})`).join(' or ')}`,
    shell: `cat ${paths.map((p) => `"$(dirname "$0")/${p}"`).join(' ')}`,
  })
  return { ...agents, dirs: agents.specs.slice(1).map((spec) => dirname(fileOf(spec))) }
}

/** The agent file of a spec (`cmd:python3 /x/agent.py` → `/x/agent.py`). */
const fileOf = (spec: string) => spec.replace(/^cmd:\S+ /, '')

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

/** One attack as four agents, `<prefix>-mjs`, `-ts`, `-py`, `-sh`, after noop: their specs and names. */
function attackAgents(
  prefix: string,
  attack: { module: string; python: string; shell: string },
): { specs: string[]; names: string[] } {
  const names = ['mjs', 'ts', 'py', 'sh'].map((k) => `${prefix}-${k}`)
  const specs = [
    noop,
    project.agent(names[0]!, attack.module),
    project.agent(names[1]!, attack.module, { ts: true }),
    `cmd:python3 ${project.pythonAgent(names[2]!, attack.python)}`,
    `cmd:sh ${project.shellAgent(names[3]!, attack.shell)}`,
  ]
  return { specs, names }
}

describe('item 1: no inspector or signal path from the agent to the harness', () => {
  const moduleBody = `
    attempt(() => process._debugProcess(process.ppid))
    const before = attempt(() => os.getPriority(process.ppid))
    attempt(() => os.setPriority(process.ppid, 19))
    await sleep(300)
    const after = attempt(() => os.getPriority(process.ppid))
    return after !== before ? 'reniced the harness from ' + before + ' to ' + after : null`
  const agents = attackAgents('inspect', {
    module: moduleBody,
    python: 'os.kill(os.getppid(), signal.SIGUSR1)\nreturn None',
    shell: 'kill -USR1 "$PPID"\n  sleep 0.3',
  })
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      `--isolate ${level}: SIGUSR1 from module, TypeScript, Python and shell agents opens no inspector; a module agent cannot re-nice the harness`,
      async () => {
        const res = await run(level, agents.specs)
        expect(res.stderr).not.toMatch(/Debugger listening|inspector/i)
        expectAllLikeNoop(res, 'noop-ref', agents.names)
      },
      180_000,
    )
  }
})

describe('item 6: descriptors the harness inherited never reach the agent', () => {
  const moduleBody = `
    const buf = Buffer.alloc(60)
    const n = attempt(() => fs.readSync(200, buf, 0, 60, 0))
    return n ? 'fd 200: ' + buf.toString('utf8', 0, n) : null`
  const agents = attackAgents('fd', {
    module: moduleBody,
    python: 'return os.pread(200, 60, 0).decode()',
    shell: 'head -c 60 /proc/self/fd/200',
  })
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      `--isolate ${level}: run … 200<clean.csv: module, TypeScript, Python and shell agents read nothing at fd 200`,
      async () => {
        const res = await run(level, agents.specs, { openFiles: { 200: project.cleanCsv } })
        expectAllLikeNoop(res, 'noop-ref', agents.names)
      },
      180_000,
    )
  }
})

describe('item 2: a command agent named by a program path mounts that file, not its prefix', () => {
  // /p/bin/agent with the run's data under /p/data: the sandbox mounted /p whole.
  const prefix = join(project.root, 'p')
  const data = join(prefix, 'data')
  mkdirSync(join(prefix, 'bin'), { recursive: true })
  cpSync(project.dataDir, data, { recursive: true })
  const py = join(prefix, 'bin/agent-py')
  copyFileSync(
    project.pythonAgent(
      'prefix-py',
      "hits = glob.glob(os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + '/**/*.csv', recursive=True)\nreturn ' '.join(hits) if hits else None",
    ),
    py,
  )
  const sh = join(prefix, 'bin/agent-sh')
  copyFileSync(project.shellAgent('prefix-sh', 'find "$(dirname "$0")/.." -name "*.csv"'), sh)
  it.skipIf(!sandboxWorks)(
    '--isolate sandbox: cmd:/p/bin/agent (Python and shell, run by their #! line) finds nothing of /p/data',
    async () => {
      const res = await run('sandbox', [noop, `cmd:${py}`, `cmd:${sh}`], { dataDir: data })
      expectAllLikeNoop(res, 'noop-ref', ['prefix-py', 'prefix-sh'])
    },
    180_000,
  )
})

describe('item 3: global JavaScript packages under /usr are hidden in the sandbox', () => {
  // npm -g puts packages (this one too, with its clean CSVs) in <prefix>/lib/node_modules. Only what exists here
  // can be looked at: the test reads, never writes, the system's folders.
  const globals = ['/usr/lib/node_modules', '/usr/local/lib/node_modules'].filter(
    (d) => existsSync(d) && readdirSync(d).length > 0,
  )
  const list = JSON.stringify(globals)
  const agents = attackAgents('global', {
    module: `const hits = ${list}.flatMap((d) => attempt(() => fs.readdirSync(d)) ?? []); return hits.length ? 'global packages: ' + hits.join(' ') : null`,
    python: `hits = [p for d in ${list} for p in glob.glob(d + '/*/package.json')]\nreturn ' '.join(hits) if hits else None`,
    shell: `for d in ${globals.join(' ')}; do ls "$d"; done`,
  })
  it.skipIf(!sandboxWorks || !globals.length)(
    `--isolate sandbox: ${globals.join(', ')} look empty to module, TypeScript, Python and shell agents`,
    async () => {
      const res = await run('sandbox', agents.specs)
      expectAllLikeNoop(res, 'noop-ref', agents.names)
    },
    180_000,
  )
})

describe('item 5: the .env the gateway reads its key from is never visible to an agent', () => {
  // A project with its .env at the root and its agents beside it (where the docs put cmd:python3 my_agent.py).
  const root = join(project.root, 'dotenv-project')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-dotenv-secret\n')
  writeFileSync(join(root, '.env.local'), 'ANTHROPIC_API_KEY=sk-dotenv-local\n')
  const written = readingAgents('dotenv', ['.env', '.env.local'])
  // Each agent moved to the project's root.
  const atRoot = {
    names: written.names,
    specs: written.specs.map((spec, i) => {
      if (i === 0) return spec
      const moved = join(root, `${basename(dirname(fileOf(spec)))}${extname(fileOf(spec))}`)
      copyFileSync(fileOf(spec), moved)
      return spec.startsWith('cmd:') ? `${spec.split(' ')[0]} ${moved}` : moved
    }),
  }
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      level === 'sandbox'
        ? '--isolate sandbox: module, TypeScript, Python and shell agents at the project root read no .env'
        : '--isolate process: module and TypeScript agents at the project root read no .env; a command agent, unrestricted there, is named in a warning',
      async () => {
        const agents = restrictedAt(level, atRoot)
        const res = await run(level, level === 'sandbox' ? agents.specs : atRoot.specs, { cwd: root })
        expectAllLikeNoop(res, 'noop-ref', agents.names)
        if (level === 'process') {
          expect(res.stderr.match(/warning: cmd:\S+ \S+ runs unrestricted under --isolate process/g)).toHaveLength(2)
          expect(res.stderr).toContain(`can read ${join(root, '.env')} (API keys)`)
        }
      },
      180_000,
    )
  }
})

describe('item 4: links at any depth, node_modules included', () => {
  // ag/node_modules/x/h.csv, a hard link to the clean CSV, below the top of the agent's node_modules.
  const hard = readingAgents('deep-hard', ['node_modules/x/h.csv'])
  for (const dir of hard.dirs) {
    mkdirSync(join(dir, 'node_modules/x'), { recursive: true })
    writeFileSync(join(dir, 'node_modules/x/package.json'), '{"name":"x"}')
    linkSync(project.cleanCsv, join(dir, 'node_modules/x/h.csv'))
  }
  // A symbolic link deep in a package: the permission model would follow it.
  const soft = project.agent('deep-symlink', "return read('node_modules/y/lib/deep/s.csv')")
  mkdirSync(join(dirname(soft), 'node_modules/y/lib/deep'), { recursive: true })
  symlinkSync(project.cleanCsv, join(dirname(soft), 'node_modules/y/lib/deep/s.csv'))
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      `--isolate ${level}: a hard link deep in node_modules is refused for module, TypeScript, Python and shell agents, naming it: exit 2 before any trial`,
      async () => {
        for (const spec of hard.specs.slice(1)) {
          const res = await run(level, [spec])
          const link = join(dirname(fileOf(spec)), 'node_modules/x/h.csv')
          expect(res.code, res.stderr).toBe(2)
          expect(res.stderr).toContain(`${link} is a hard link to the run's data file ${project.cleanCsv}`)
          expect(existsSync(join(res.out, 'runs.jsonl'))).toBe(false)
        }
      },
      180_000,
    )
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      level === 'sandbox'
        ? '--isolate sandbox: a symbolic link deep in node_modules leads nowhere'
        : '--isolate process: a symbolic link deep in node_modules is refused, naming it',
      async () => {
        const res = await run(level, [noop, soft])
        if (level === 'sandbox') return expectAllLikeNoop(res, 'noop-ref', ['deep-symlink'])
        expect(res.code, res.stderr).toBe(2)
        expect(res.stderr).toContain(
          `${join(dirname(soft), 'node_modules/y/lib/deep/s.csv')} is a symbolic link to ${project.cleanCsv}`,
        )
      },
      180_000,
    )
  }
})

describe('item 8: a copy of this package under another folder name is recognised by its content', () => {
  // npm's alias layout ("foo": "npm:dataforge-evals@…" installs a real copy at node_modules/foo), and a renamed
  // fork whose package.json names something else but whose datasets are ours.
  const copies = readingAgents('alias', [
    'node_modules/foo/datasets/hospital/clean.csv',
    'node_modules/bar/datasets/hospital/clean.csv',
  ])
  for (const dir of copies.dirs) {
    for (const [folder, name] of [
      ['foo', 'dataforge-evals'],
      ['bar', 'my-fork'],
    ] as const) {
      mkdirSync(join(dir, 'node_modules', folder, 'datasets/hospital'), { recursive: true })
      writeFileSync(join(dir, 'node_modules', folder, 'package.json'), JSON.stringify({ name, version: '1.0.0' }))
      copyFileSync(
        join(repoRoot, 'datasets/hospital/clean.csv'),
        join(dir, 'node_modules', folder, 'datasets/hospital/clean.csv'),
      )
    }
  }
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      level === 'sandbox'
        ? '--isolate sandbox: module, TypeScript, Python and shell agents read neither copy'
        : '--isolate process: module and TypeScript agents read neither copy (command agents are unrestricted there)',
      async () => {
        const agents = restrictedAt(level, copies)
        expectAllLikeNoop(await run(level, agents.specs), 'noop-ref', agents.names)
      },
      180_000,
    )
  }
})

describe('item 7: agent stderr is prefixed with the agent name and capped', () => {
  // Workflow commands a GitHub runner would execute at a line's start (after a carriage return too), then 12 MiB
  // of noise from a bounded loop: more than the 8 MiB an agent's stderr may show.
  const MIB = 2 ** 20
  const agents = attackAgents('stderr', {
    module: `process.stderr.write('::error title=x::forged\\nok\\r::add-mask::Gate\\n'); const line = '::warning::' + 'n'.repeat(1013) + '\\n'; for (let i = 0; i < 12 * 1024; i++) process.stderr.write(line); return null`,
    python: `sys.stderr.write('::error title=x::forged\\nok\\r::add-mask::Gate\\n')\nfor i in range(12 * 1024):\n    sys.stderr.write('::warning::' + 'n' * 1013 + '\\n')\nsys.stderr.flush()\nreturn None`,
    shell: `printf '::error title=x::forged\\nok\\r::add-mask::Gate\\n' >&2\n  yes '::warning::nnnnnnnn' | head -c ${12 * MIB} >&2`,
  })
  for (const level of LEVELS) {
    it.skipIf(level === 'sandbox' && !sandboxWorks)(
      `--isolate ${level}: module, TypeScript, Python and shell agents: no stderr line starts a workflow command; each agent's shows at most 8 MiB, then one line says how much was dropped`,
      async () => {
        const res = await run(level, agents.specs)
        expectAllLikeNoop(res, 'noop-ref', agents.names)
        const lines = res.stderr.split(/\r\n|\r|\n/)
        const commands = lines.filter((l) => l.trimStart().startsWith('::'))
        expect(commands.length, `first: ${commands[0]?.slice(0, 80)}`).toBe(0)
        for (const name of agents.names) {
          const own = lines.filter((l) => l.startsWith(`[${name}] `))
          expect(own.length, name).toBeGreaterThan(3)
          expect(own.join('\n').length, name).toBeLessThan(8 * MIB + own.length * (name.length + 4))
          expect(
            own.filter((l) => /more bytes of stderr dropped \(an agent's stderr is shown up to 8 MiB a run\)$/.test(l)),
            name,
          ).toHaveLength(1)
        }
      },
      180_000,
    )
  }
})

describe('item 9: memory, processes and /tmp of a sandboxed agent are bounded', () => {
  // Each agent reports what got past the limits: 3 GiB allocated, or 64 MiB written to its /tmp.
  const agents = attackAgents('limits', {
    // WebAssembly (what Node's fetch runs on) must still work under the memory limit: V8 reserves address space for it.
    module: `const wasm = attempt(() => new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 5, 3, 1, 0, 1])))); if (!wasm) return 'no WebAssembly under the limit'; const big = attempt(() => Buffer.alloc(3 * 1024 ** 3)); const wrote = attempt(() => { fs.writeFileSync('/tmp/f', Buffer.alloc(64 * 1024 ** 2)); return fs.statSync('/tmp/f').size }); return big ? 'allocated 3 GiB' : wrote === 64 * 1024 ** 2 ? 'wrote 64 MiB to /tmp' : null`,
    python: `try:\n    big = bytearray(3 * 1024 ** 3)\n    return 'allocated 3 GiB'\nexcept MemoryError:\n    pass\ntry:\n    with open('/tmp/f', 'wb') as f:\n        f.write(b'x' * (64 * 1024 ** 2))\n    return 'wrote 64 MiB to /tmp'\nexcept OSError:\n    return None`,
    shell: `head -c ${64 * 2 ** 20} /dev/zero > /tmp/f 2>/dev/null; [ "$(wc -c < /tmp/f)" -eq ${64 * 2 ** 20} ] && echo wrote 64 MiB to /tmp`,
  })
  it.skipIf(!sandboxWorks)(
    '--isolate sandbox --sandbox-memory-mb 2048 --sandbox-tmp-mb 16: module, TypeScript, Python and shell agents allocate and write no more',
    async () => {
      const res = await run('sandbox', agents.specs, {
        extra: ['--sandbox-memory-mb', '2048', '--sandbox-tmp-mb', '16'],
      })
      expectAllLikeNoop(res, 'noop-ref', agents.names)
    },
    180_000,
  )
})
