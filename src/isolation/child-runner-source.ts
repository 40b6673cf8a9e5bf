/**
 * The program an isolated module agent runs in (`node --input-type=module -e SOURCE -- MODULE [JITI]`). It is
 * passed on the command line, not read from a file, so the child needs no read access to the harness: under the
 * permission model it can read its own folder, its node_modules and nothing of ours. Plain JavaScript with only
 * Node built-ins (and jiti for TypeScript agents); it speaks the protocol of ./protocol.ts on fd 1 and moves
 * everything the agent prints to stderr.
 */
export const CHILD_RUNNER_SOURCE = String.raw`
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { types } from 'node:util'
import { basename, extname, isAbsolute, resolve as resolvePath } from 'node:path'
import fs from 'node:fs'
import Module, { syncBuiltinESMExports } from 'node:module'
import traceEvents from 'node:trace_events'
import os from 'node:os'

// Closing what Node's permission model leaves open, before any agent code runs (under the OS sandbox too):
// - signals: the agent may signal only itself, so it cannot kill or stop the harness (process.binding is denied);
//   process._debugProcess (SIGUSR1: another process's inspector) and os.setPriority of another process are refused;
// - trace_events would write a trace file into the working folder without a write grant;
// - fs.realpath and require.resolve would say which paths exist outside what the agent may read.
{
  const ownPid = process.pid
  const realKill = process._kill
  process._kill = function (pid, signal) {
    if (Number(pid) !== ownPid) return -1 // EPERM: process.kill throws "kill EPERM"
    return realKill.call(process, pid, signal)
  }
  const eperm = (what) => Object.assign(new Error(what + ' EPERM'), { code: 'EPERM', errno: -1, syscall: what })
  process._debugProcess = () => {
    throw eperm('_debugProcess')
  }
  const realSetPriority = os.setPriority
  os.setPriority = function (pid, priority) {
    if (priority === undefined) return realSetPriority.call(os, pid)
    if (Number(pid) !== 0 && Number(pid) !== ownPid) throw eperm('uv_os_setpriority')
    return realSetPriority.call(os, pid, priority)
  }
  traceEvents.createTracing = () => {
    throw Object.assign(new Error('trace_events is not available to an isolated agent'), { code: 'ERR_ACCESS_DENIED' })
  }
  const permission = process.permission
  if (permission) {
    const denied = (path) => Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED', permission: 'FileSystemRead', resource: String(path) })
    const readable = (path) => {
      try {
        return permission.has('fs.read', resolvePath(String(path instanceof URL ? path.pathname : path)))
      } catch {
        return false
      }
    }
    const guard = (fn) => {
      const wrapped = function (path, ...rest) {
        if (!readable(path)) {
          const cb = rest.find((a) => typeof a === 'function')
          if (cb) return process.nextTick(cb, denied(path))
          throw denied(path)
        }
        return fn.call(this, path, ...rest)
      }
      return wrapped
    }
    const realpathSync = guard(fs.realpathSync)
    realpathSync.native = guard(fs.realpathSync.native)
    fs.realpathSync = realpathSync
    const realpath = guard(fs.realpath)
    realpath.native = guard(fs.realpath.native)
    fs.realpath = realpath
    const promiseRealpath = fs.promises.realpath
    fs.promises.realpath = async (path, ...rest) => {
      if (!readable(path)) throw denied(path)
      return promiseRealpath(path, ...rest)
    }
    const resolveFilename = Module._resolveFilename
    Module._resolveFilename = function (...args) {
      const found = resolveFilename.apply(this, args)
      if (typeof found === 'string' && isAbsolute(found) && !readable(found)) {
        throw Object.assign(new Error("Cannot find module '" + args[0] + "'"), { code: 'MODULE_NOT_FOUND' })
      }
      return found
    }
  }
  syncBuiltinESMExports()
}

const [modulePath, jitiPath] = process.argv.slice(1)
const writeOut = process.stdout.write.bind(process.stdout)
const toStderr = (...args) => process.stderr.write(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') + '\n')
console.log = console.info = console.debug = toStderr
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest)

let current = null
const send = (message) => writeOut(JSON.stringify(message) + '\n')
// The same text an in-process failure gets (src/run/run-repair-trial.ts classifyFailure).
const describe = (error) => (error instanceof Error ? error.name + ': ' + error.message : 'thrown non-error: ' + String(error))
const crash = (error) => {
  send({ type: 'error', id: current, kind: 'agent_crash', message: 'uncaught in agent code: ' + describe(error) })
  process.exit(70)
}
process.on('uncaughtException', crash)
process.on('unhandledRejection', crash)

let loads = 0
let jiti = null
async function loadAgent() {
  loads++
  let mod
  if (/\.((c|m)?ts|js)$/.test(modulePath)) {
    if (!jiti) {
      const { createJiti } = await import(pathToFileURL(jitiPath).href)
      jiti = createJiti(pathToFileURL(modulePath).href, { fsCache: false, moduleCache: false, interopDefault: false })
    }
    mod = await jiti.import(modulePath)
  } else {
    // .mjs/.cjs load natively; a fresh module instance per trial: the query makes it a new module record.
    mod = await import(pathToFileURL(modulePath).href + (loads > 1 ? '?trial-instance=' + loads : ''))
  }
  let candidate = mod.agent ?? mod.default
  if (typeof candidate === 'function' && !('run' in candidate) && !('session' in candidate)) candidate = await candidate()
  if (!candidate || typeof candidate !== 'object' || (typeof candidate.run !== 'function' && typeof candidate.session !== 'function')) {
    throw new Error('must export an agent ({ name, run(task, ctx) } or { name, session(tables, ctx) }) as default or as "agent"; found exports [' + Object.keys(mod).join(', ') + ']')
  }
  return candidate
}

// As describe() in src/run/normalize-output.ts, so both front doors word a failure the same.
function describeValue(value) {
  if (value === null) return 'null'
  if (value === undefined) return 'undefined'
  if (typeof value === 'object') return 'an object with keys [' + Object.keys(value).slice(0, 5).join(', ') + ']'
  const text = String(value)
  return 'a ' + typeof value + ' (' + (text.length > 40 ? text.slice(0, 40) + '…' : text) + ')'
}

function tooLarge(fixes, task) {
  if (!Array.isArray(fixes)) return null
  if (types.isProxy(fixes)) return 'a proxied array of fixes'
  const limit = 4 * task.dirty.rows.length * Math.max(1, task.columns.length)
  if (fixes.length > limit) return fixes.length + ' fixes for a table of ' + limit / 4 + ' cells (at most 4 per cell)'
  for (let i = 0; i < fixes.length; i++) if (!(i in fixes)) return 'a sparse array of fixes (no item at index ' + i + ')'
  return null
}

let agent
try {
  agent = await loadAgent()
} catch (error) {
  send({ type: 'error', id: null, message: (error instanceof Error ? error.message : String(error)).split('\n')[0] })
  process.exit(1)
}
send({
  type: 'ready',
  protocol: 1,
  name: typeof agent.name === 'string' && agent.name ? agent.name : basename(modulePath, extname(modulePath)),
  ...(typeof agent.kind === 'string' ? { kind: agent.kind } : {}),
  ...(typeof agent.model === 'string' ? { model: agent.model } : {}),
  ...(typeof agent.provider === 'string' ? { provider: agent.provider } : {}),
  capabilities: [...(typeof agent.run === 'function' ? ['repair'] : []), ...(typeof agent.session === 'function' ? ['data'] : [])],
})

let trials = 0
let session = null
async function handle(message) {
  current = message.id
  try {
    if (message.type === 'repair') {
      if (trials++ > 0) agent = await loadAgent()
      const output = await agent.run(message.task, { seed: message.seed, trial: message.trial, signal: new AbortController().signal })
      const fixes = Array.isArray(output) ? output : output && typeof output === 'object' ? output.fixes : undefined
      if (!Array.isArray(fixes)) {
        send({ type: 'error', id: message.id, kind: 'invalid_output', message: 'agent returned ' + describeValue(output) + '; expected an array of fixes or an object with a "fixes" array' })
        return
      }
      const bad = tooLarge(fixes, message.task)
      if (bad) {
        send({ type: 'error', id: message.id, kind: 'invalid_output', message: 'agent returned ' + bad })
        return
      }
      send({ ...(Array.isArray(output) ? {} : output), type: 'result', id: message.id, fixes })
    } else if (message.type === 'open') {
      session = await agent.session(message.tables, { seed: message.seed })
      send({ type: 'opened', id: message.id })
    } else if (message.type === 'ask') {
      const answer = await session.ask(message.question, { signal: new AbortController().signal })
      send({ type: 'answer', id: message.id, answer })
    } else if (message.type === 'close') {
      await session?.close?.()
      session = null
      send({ type: 'closed', id: message.id })
    }
  } catch (error) {
    send({ type: 'error', id: message.id, message: describe(error), ...(typeof error?.kind === 'string' ? { kind: error.kind } : {}) })
  } finally {
    current = null
  }
}

let queue = Promise.resolve()
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  let message
  try {
    message = JSON.parse(line)
  } catch {
    return
  }
  queue = queue.then(() => handle(message))
}).on('close', () => queue.then(() => process.exit(0)))
`
