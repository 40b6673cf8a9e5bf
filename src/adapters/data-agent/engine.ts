import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader, DuckDBTypeId } from '@duckdb/node-api'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'
import { writeCsvChunks } from '../../datasets/csv.js'

/** A session table: rows in memory, or a CSV or Parquet file read once when the session opens. */
export type TableSource = Table | { csv: string } | { parquet: string }

/** A mistake the model can read and recover from: returned to it as the tool's result, never thrown past the loop. */
export class ToolError extends Error {
  override name = 'ToolError'
}

export interface ColumnInfo {
  name: string
  type: string
}

export interface RelationInfo {
  name: string
  kind: 'table' | 'saved'
  rows: number
  columns: ColumnInfo[]
}

/** Rows as the model and the answer see them: JSON values (numbers as numbers where exact, dates as ISO text). */
export interface QueryResult {
  columns: ColumnInfo[]
  rows: unknown[][]
  /** Rows the query produced in all (counted only when the result was truncated, else `rows.length`). */
  rowCount: number
  truncated: boolean
}

export interface EngineOptions {
  /** DuckDB worker threads; default DuckDB's own (the machine's cores). */
  threads?: number
  /** DuckDB memory limit per session, e.g. `'4GB'`. Default `'2GB'`. */
  memoryLimit?: string
  /**
   * Where DuckDB may spill when a query outgrows the memory limit. Default none: such a query fails with an
   * out-of-memory tool error instead of writing temporary files into the working folder.
   */
  tempDirectory?: string
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

type DuckDb = typeof import('@duckdb/node-api')
let duckDbModule: Promise<DuckDb> | undefined

/** The DuckDB versions this package works with: its optional peer dependency (package.json says the same). */
const DUCKDB_RANGE = '^1.5.6-r.1'

/**
 * The native engine (a 68 MB binding, an optional peer) loads on the first session, so importing the package
 * stays cheap where no data agent runs, and a project without one need not install it.
 */
function loadDuckDb(): Promise<DuckDb> {
  duckDbModule ??= import('@duckdb/node-api').catch((error: unknown) => {
    duckDbModule = undefined
    throw isMissing(error)
      ? new InputError(`data agent: DuckDB is not installed; install it with npm i -D @duckdb/node-api@${DUCKDB_RANGE}`)
      : error
  })
  return duckDbModule
}

/** The package itself is absent (ESM's or CommonJS's not-found error naming it), not a broken install of it. */
function isMissing(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown }
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    /['"]@duckdb\/node-api['"]/.test(message)
  )
}

/**
 * One in-memory DuckDB database per session. Tables are loaded and typed by DuckDB's CSV sniffing over every
 * row; then external access is switched off and the configuration locked, so the model's SQL cannot read or
 * write files, attach databases, install extensions or change settings. Only single SELECT statements run.
 */
export class DataEngine {
  private readonly relations = new Map<string, RelationInfo>()
  private closed = false
  /** The model's statement being run (`statement`), or null. */
  private running: object | null = null
  /** Settles when the running statement has ended (whatever its outcome); null when none runs. */
  private runningEnded: Promise<unknown> | null = null
  /** Settles once DuckDB's connection and instance are closed. */
  private closedFully: Promise<void> = Promise.resolve()

  // Types DuckDB's JSON conversion renders as text to keep precision; shown as numbers where that loses nothing.
  private readonly wideNumbers: ReadonlySet<DuckDBTypeId>

  private constructor(
    private readonly duckdb: DuckDb,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {
    const id = duckdb.DuckDBTypeId
    this.wideNumbers = new Set([id.BIGINT, id.UBIGINT, id.HUGEINT, id.UHUGEINT, id.DECIMAL])
  }

  static async open(sources: Record<string, TableSource>, opts: EngineOptions = {}): Promise<DataEngine> {
    const names = Object.keys(sources)
    if (names.length === 0) throw new InputError('data agent: the session has no tables')
    for (const name of names) {
      if (!NAME.test(name)) {
        throw new InputError(
          `data agent: table name ${JSON.stringify(name)} must be a SQL identifier (letters, digits, underscore)`,
        )
      }
    }
    const config: Record<string, string> = {
      memory_limit: opts.memoryLimit ?? '2GB',
      temp_directory: opts.tempDirectory ?? '',
    }
    if (opts.threads !== undefined) config['threads'] = String(opts.threads)
    const duckdb = await loadDuckDb()
    let instance: DuckDBInstance
    try {
      instance = await duckdb.DuckDBInstance.create(':memory:', config)
    } catch (error) {
      throw new InputError(
        `data agent: DuckDB refused the engine options ${JSON.stringify(opts)}: ${engineMessage(error)}`,
      )
    }
    const connection = await instance.connect()
    const engine = new DataEngine(duckdb, instance, connection)
    try {
      await engine.load(sources)
      await connection.run('SET enable_external_access = false')
      await connection.run('SET lock_configuration = true')
    } catch (error) {
      engine.close()
      throw error
    }
    return engine
  }

  private async load(sources: Record<string, TableSource>): Promise<void> {
    let scratch: string | undefined
    try {
      for (const [name, source] of Object.entries(sources)) {
        let from: string
        if ('csv' in source) from = `read_csv(${literal(resolve(source.csv))}, header = true, sample_size = -1)`
        else if ('parquet' in source) from = `read_parquet(${literal(resolve(source.parquet))})`
        else {
          scratch ??= await mkdtemp(join(tmpdir(), 'dataforge-data-agent-'))
          const file = join(scratch, `${name}.csv`)
          await writeTableCsv(source, file)
          // Every row is sniffed, so a late value that breaks the first rows' type still loads.
          from = `read_csv(${literal(file)}, header = true, delim = ',', quote = '"', escape = '"', sample_size = -1)`
        }
        try {
          await this.connection.run(`CREATE TABLE ${ident(name)} AS SELECT * FROM ${from}`)
        } catch (error) {
          const what = 'csv' in source ? source.csv : 'parquet' in source ? source.parquet : 'its rows'
          throw new InputError(`data agent: table ${name} cannot be loaded from ${what}: ${engineMessage(error)}`)
        }
        await this.register(name, 'table')
      }
    } finally {
      if (scratch) await rm(scratch, { recursive: true, force: true })
    }
  }

  private async register(name: string, kind: RelationInfo['kind']): Promise<RelationInfo> {
    const described = await this.connection.runAndReadAll(`DESCRIBE ${ident(name)}`)
    const columns = described.getRowsJson().map((row) => ({ name: String(row[0]), type: String(row[1]) }))
    const counted = await this.connection.runAndReadAll(`SELECT count(*) FROM ${ident(name)}`)
    const info: RelationInfo = { name, kind, rows: Number(counted.getRowsJson()[0]?.[0] ?? 0), columns }
    this.relations.set(name.toLowerCase(), info)
    return info
  }

  /** Session tables first, then saved results, each in the order they appeared. */
  list(): RelationInfo[] {
    const all = [...this.relations.values()]
    return [...all.filter((r) => r.kind === 'table'), ...all.filter((r) => r.kind === 'saved')]
  }

  relation(name: string): RelationInfo {
    // DuckDB matches identifiers case-insensitively, so this lookup does too.
    const info = this.relations.get(name.toLowerCase())
    if (info) return info
    const known = [...this.relations.values()].map((r) => r.name).join(', ')
    throw new ToolError(`no table or saved result named ${JSON.stringify(name)}; known: ${known}`)
  }

  /** The first `n` rows in load order: what `describe` shows. */
  async head(name: string, n: number): Promise<QueryResult> {
    this.relation(name)
    return this.read(
      await this.connection.runAndReadAll(`SELECT * FROM ${ident(name)} LIMIT ${Math.max(0, Math.floor(n))}`),
      n,
    )
  }

  /** Runs one read-only statement; keeps at most `maxRows` rows and counts the rest when there are more. */
  async query(sql: string, maxRows: number): Promise<QueryResult> {
    this.assertOpen()
    return this.statement(() => this.runQuery(sql, maxRows))
  }

  private async runQuery(sql: string, maxRows: number): Promise<QueryResult> {
    const prepared = await this.prepareReadOnly(sql)
    let reader: DuckDBResultReader
    try {
      reader = await prepared.streamAndReadUntil(maxRows + 1)
    } catch (error) {
      throw new ToolError(engineMessage(error))
    } finally {
      prepared.destroySync()
    }
    const result = this.read(reader, maxRows)
    if (result.truncated) {
      // Counting apart lets DuckDB skip building the rows nobody will see.
      const counted = await this.connection.runAndReadAll(`SELECT count(*) FROM (${stripSemicolons(sql)})`)
      result.rowCount = Number(counted.getRowsJson()[0]?.[0] ?? result.rows.length)
    }
    return result
  }

  /** Stores a read-only query's result as a table later questions can query by name. */
  async save(name: string, sql: string): Promise<RelationInfo> {
    this.assertOpen()
    if (!NAME.test(name))
      throw new ToolError(`save: name ${JSON.stringify(name)} must be a SQL identifier (letters, digits, underscore)`)
    const existing = this.relations.get(name.toLowerCase())
    if (existing?.kind === 'table')
      throw new ToolError(`save: ${existing.name} is a session table; choose another name`)
    await this.statement(async () => {
      // The check runs on the model's statement alone; the harness wraps it in the one write the model may ask for.
      ;(await this.prepareReadOnly(sql)).destroySync()
      try {
        await this.connection.run(`CREATE OR REPLACE TABLE ${ident(name)} AS ${stripSemicolons(sql)}`)
      } catch (error) {
        throw new ToolError(`save: ${engineMessage(error)}`)
      }
    })
    // A result saved again under another case keeps one entry.
    this.relations.delete(name.toLowerCase())
    return this.register(name, 'saved')
  }

  /**
   * Aborts the running query or save, if any. DuckDB drops an interrupt that comes before the statement starts
   * executing (while it is parsed or prepared), so it is sent again until that statement has ended.
   */
  interrupt(): void {
    if (this.closed) return
    this.interruptRunning()
  }

  private interruptRunning(): void {
    this.connection.interrupt()
    const target = this.running
    if (target === null) return
    const again = setInterval(() => {
      if (this.running !== target) clearInterval(again)
      else this.connection.interrupt()
    }, 5)
    again.unref()
  }

  /** Runs a model's statement as the one `interrupt` aims at. */
  private async statement<T>(work: () => Promise<T>): Promise<T> {
    const token = {}
    this.running = token
    const running = work()
    const ended = running.then(
      () => undefined,
      () => undefined,
    )
    this.runningEnded = ended
    try {
      return await running
    } finally {
      if (this.running === token) {
        this.running = null
        this.runningEnded = null
      }
    }
  }

  /**
   * Closes the session's database. A statement still running (a question that timed out while DuckDB works on a
   * heavy join) is interrupted first and the database closed once it has stopped: closing under a running query
   * leaves it running on a libuv pool thread, and the process could never exit. `whenClosed()` says when it is done.
   */
  close(): void {
    if (this.closed) return
    this.closed = true
    const release = () => {
      this.connection.closeSync()
      this.instance.closeSync()
    }
    const ended = this.runningEnded
    if (ended === null) {
      release()
      return
    }
    this.interruptRunning()
    this.closedFully = ended.then(release)
  }

  /** Settles once the database is closed (at once, unless `close` had to stop a running statement first). */
  whenClosed(): Promise<void> {
    return this.closedFully
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('data agent: the session is closed')
  }

  private async prepareReadOnly(sql: string) {
    if (typeof sql !== 'string' || sql.trim() === '') throw new ToolError('the query is empty')
    let statements: Awaited<ReturnType<DuckDBConnection['extractStatements']>>
    try {
      statements = await this.connection.extractStatements(sql)
    } catch (error) {
      throw new ToolError(engineMessage(error))
    }
    if (statements.count !== 1) {
      throw new ToolError(`send exactly one statement per call (this query has ${statements.count})`)
    }
    let prepared: Awaited<ReturnType<typeof statements.prepare>>
    try {
      prepared = await statements.prepare(0)
    } catch (error) {
      throw new ToolError(engineMessage(error))
    }
    const { StatementType } = this.duckdb
    if (prepared.statementType !== StatementType.SELECT) {
      const kind = StatementType[prepared.statementType] ?? 'this'
      prepared.destroySync()
      throw new ToolError(
        `refused: ${kind} statements are not allowed; the tables are read-only and only SELECT queries run ` +
          '(use save(name, query) to keep a result for later)',
      )
    }
    return prepared
  }

  private read(reader: DuckDBResultReader, maxRows: number): QueryResult {
    const names = reader.columnNames()
    const types = reader.columnTypes()
    const columns = names.map((name, i) => ({ name, type: String(types[i]) }))
    const all = reader.getRowsJson()
    const truncated = all.length > maxRows
    const kept = truncated ? all.slice(0, maxRows) : all
    const exact = types.map((t) => this.wideNumbers.has(t.typeId))
    const rows = kept.map((row) => row.map((value, j) => (exact[j] ? asNumber(value) : value)))
    return { columns, rows, rowCount: all.length, truncated }
  }
}

function asNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const n = Number(value)
  if (!Number.isFinite(n)) return value
  if (/^-?\d+$/.test(value) && !Number.isSafeInteger(n)) return value
  return n
}

async function writeTableCsv(table: Table, file: string): Promise<void> {
  // Chunks of many lines written as one iterable: no stream back-pressure to manage and no giant string.
  const chunks: string[] = []
  writeCsvChunks(table, (chunk) => chunks.push(chunk), 8192)
  await writeFile(file, chunks)
}

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

function stripSemicolons(sql: string): string {
  return sql.replace(/[;\s]+$/, '')
}

/** DuckDB echoes data in some errors (a CSV line of any length): what reaches the model or a user is capped. */
const MAX_MESSAGE_CHARS = 2000

function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [cut: ${text.length} characters in all]`
}

/**
 * DuckDB's message without the echoed SQL and caret (`LINE n: …`), on one line; hints such as
 * `Candidate bindings` stay, since they are what lets the model fix its query.
 */
function engineMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const lines = message.split('\n')
  const echo = lines.findIndex((line) => /^LINE \d+:/.test(line))
  const text = (echo >= 0 ? lines.slice(0, echo) : lines)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
  return capText(text.replace(/^Failed to extract statements: /, ''), MAX_MESSAGE_CHARS)
}
