import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { InputError } from '../core/errors.js'
import { canonicalJson } from '../core/hash.js'

/*
 * The run journal's seal: an HMAC-SHA256 chain with a per-run key.
 *
 * A fresh run draws 32 random bytes and keeps them in a key file outside the report folder (the state folder:
 * $DATAFORGE_STATE_DIR, else ~/.local/state/dataforge-evals; mode 0600), named by a random id recorded in
 * run.partial.json. The plan is sealed with the key, and each journal line carries the MAC of its record's
 * exact text chained to the MAC before it. `--resume` recomputes the chain and refuses the journal at the
 * first line that does not match. The key never enters a report, a log, an error or an agent's environment
 * (isolated agents get no DATAFORGE_* variables), and is deleted when the run's reports are written.
 *
 * What it proves: every record (and the plan) was written, in this order, by a harness process that held the
 * key; a line added, edited, reordered or removed from the middle by anything that can write the report
 * folder but not read the key (a sandboxed or permission-model agent, a later edit of the folder) is found.
 * What it does not: a process running as the same user outside any sandbox can read the key file and forge a
 * chain; a journal cut at its end (lines removed from the tail) just runs those trials again.
 */

const JOURNAL_MAC_PREFIX = '{"mac":"'
const MAC_HEX = 64

/** The folder holding per-run journal keys. */
export function journalKeyDir(env: Record<string, string | undefined>): string {
  return env.DATAFORGE_STATE_DIR
    ? join(env.DATAFORGE_STATE_DIR, 'run-keys')
    : join(homedir(), '.local', 'state', 'dataforge-evals', 'run-keys')
}

export interface JournalKey {
  id: string
  key: Buffer
  dir: string
}

/** A new per-run key, written (0600) to the state folder. */
export function createJournalKey(dir: string): JournalKey {
  const id = randomUUID()
  const key = randomBytes(32)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(join(dir, `${id}.key`), key.toString('hex'), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    throw new InputError(
      `${dir}: cannot keep the run's journal key here (${(error as NodeJS.ErrnoException).code ?? String(error)}); set $DATAFORGE_STATE_DIR to a writable folder`,
    )
  }
  return { id, key, dir }
}

/** The key of a recorded run; an InputError naming where it looked when it is not there. */
export function readJournalKey(dir: string, id: unknown, planPath: string): JournalKey {
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id))
    throw new InputError(`${planPath}: field "journalKey": missing or not a key id`)
  const path = join(dir, `${id}.key`)
  let hex: string
  try {
    hex = readFileSync(path, 'utf8').trim()
  } catch {
    throw new InputError(
      `${planPath}: the run's journal key ${id} is not in ${dir}; a journal can be resumed only where its run started (same user, same $DATAFORGE_STATE_DIR)`,
    )
  }
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new InputError(`${path}: not a journal key`)
  return { id, key: Buffer.from(hex, 'hex'), dir }
}

export function removeJournalKey(key: JournalKey): void {
  rmSync(join(key.dir, `${key.id}.key`), { force: true })
}

function mac(key: Buffer, previous: string, text: string): string {
  return createHmac('sha256', key).update(previous).update('\n').update(text).digest('hex')
}

/** The plan's MAC: over its canonical JSON without the MAC itself. The chain of records starts from it. */
export function planMac(key: JournalKey, plan: Record<string, unknown>): string {
  const { planMac: _ignored, ...rest } = plan
  return mac(key.key, 'plan', canonicalJson(rest))
}

/** Seals journal lines one after another, each chained to the one before. */
export class JournalSealer {
  constructor(
    private readonly key: JournalKey,
    private previous: string,
  ) {}

  line(recordJson: string): string {
    this.previous = mac(this.key.key, this.previous, recordJson)
    return `${JOURNAL_MAC_PREFIX}${this.previous}","record":${recordJson}}\n`
  }

  get last(): string {
    return this.previous
  }
}

/**
 * The records' JSON texts of a sealed journal, each with its line number, after checking the chain from
 * `start`; an InputError naming the first line that was not written by this run. Returns the last MAC.
 */
export function openSealedJournal(
  text: string,
  file: string,
  key: JournalKey,
  start: string,
): { lines: Array<{ json: string; line: number }>; last: string } {
  const lines: Array<{ json: string; line: number }> = []
  let previous = start
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return
    const where = `${file}: line ${i + 1}`
    const head = JOURNAL_MAC_PREFIX.length
    const sealed =
      raw.startsWith(JOURNAL_MAC_PREFIX) &&
      raw.slice(head + MAC_HEX, head + MAC_HEX + 11) === '","record":' &&
      raw.endsWith('}')
    if (!sealed)
      throw new InputError(
        `${where}: not a sealed journal line; the journal was changed after the run wrote it (start over: delete run.partial.json)`,
      )
    const json = raw.slice(head + MAC_HEX + 11, -1)
    const expected = mac(key.key, previous, json)
    if (raw.slice(head, head + MAC_HEX) !== expected) {
      throw new InputError(
        `${where}: the record's seal does not match (added, edited or moved after the run wrote it); start over: delete run.partial.json`,
      )
    }
    previous = expected
    lines.push({ json, line: i + 1 })
  })
  return { lines, last: previous }
}
