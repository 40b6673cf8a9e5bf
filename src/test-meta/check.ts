import { DATASET_ORIGINS, DIGEST_OF } from '../core/digest-of.js'
import { isPlainObject } from '../core/is-plain-object.js'
import { USAGE_FIELDS } from '../core/usage.js'
import type { DataforgeMeta } from './schema.js'

/*
 * Whether a test's meta is exactly what `DataforgeMetaSchema` accepts and returns unchanged (no unknown key to
 * strip, no default to fill in): the same answer as `compileExactCheck(DataforgeMetaSchema)`, written out by
 * hand so the reporter can take the common case (what evalCase wrote) without loading zod into Vitest's main
 * process, and faster than the compiled check. Anything else goes to `parseDataforgeMeta`, which gives zod's
 * result or its error. test/test-meta/schema.test.ts holds the two checks to the same answers.
 */

type Obj = Record<string, unknown>

const str = (v: unknown): boolean => typeof v === 'string'
const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string'
const num = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v)
const nonNegative = (v: unknown): boolean => num(v) && (v as number) >= 0
const int = (v: unknown): boolean => Number.isSafeInteger(v)
const count = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0
/** As core/repair-score.ts's RateSchema: a number in [0, 1]. */
const rate = (v: unknown): boolean => num(v) && (v as number) >= 0 && (v as number) <= 1

/** Own and inherited enumerable keys are all among `known` (and none holds `undefined`). */
function onlyKnownKeys(v: Obj, known: ReadonlySet<string>): boolean {
  for (const key in v) if (!known.has(key) || v[key] === undefined) return false
  return true
}

function arrayOf(v: unknown, item: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (!item(v[i])) return false
  return true
}

function recordOf(v: unknown, value: (x: unknown) => boolean): boolean {
  if (!isPlainObject(v)) return false
  for (const x of Object.values(v)) if (!value(x)) return false
  return true
}

/** `present` keys are required; `optional` ones may be absent. */
function keys(present: string[], optional: string[] = []): ReadonlySet<string> {
  return new Set([...present, ...optional])
}

const KIND_MESSAGE = keys(['kind', 'message'])
const kindMessage = (v: unknown): boolean =>
  isPlainObject(v) && onlyKnownKeys(v, KIND_MESSAGE) && str(v.kind) && str(v.message)

/**
 * A check that remembers the objects it passed. The parts many tests share (a dataset's digests, clean
 * diagnostics, P/R/F1 objects: test-meta/shared-parts.ts) arrive as one object per batch of results, and nothing
 * changes a meta's parts once it has arrived, so each is checked once, not once per test.
 */
function once(check: (v: unknown) => boolean): (v: unknown) => boolean {
  const passed = new WeakSet<object>()
  return (v) => {
    if (typeof v === 'object' && v !== null && passed.has(v)) return true
    const ok = check(v)
    if (ok) passed.add(v as object)
    return ok
  }
}

const DIGESTS = keys(['dirty', 'clean'])
const digests = once((v) => isPlainObject(v) && onlyKnownKeys(v, DIGESTS) && str(v.dirty) && str(v.clean))

const PRF = keys(['tp', 'fp', 'fn', 'precision', 'recall', 'f1'])
function prfFields(v: Obj): boolean {
  return count(v.tp) && count(v.fp) && count(v.fn) && rate(v.precision) && rate(v.recall) && rate(v.f1)
}
const prf = once((v) => isPlainObject(v) && onlyKnownKeys(v, PRF) && prfFields(v))

const KIND_RECALL = keys(['total', 'tp', 'recall'])
const kindRecall = (v: unknown): boolean =>
  isPlainObject(v) && onlyKnownKeys(v, KIND_RECALL) && count(v.total) && count(v.tp) && rate(v.recall)

const CELL_ISSUE = keys(['row', 'column'], ['got', 'want', 'dirty'])
function cellIssue(v: unknown): boolean {
  if (!isPlainObject(v) || !onlyKnownKeys(v, CELL_ISSUE) || !num(v.row) || !str(v.column)) return false
  return (!('got' in v) || str(v.got)) && (!('want' in v) || str(v.want)) && (!('dirty' in v) || str(v.dirty))
}

const DIAGNOSTICS = keys([
  'wrongCell',
  'wrongValue',
  'overRepair',
  'missedRepair',
  'caseInsensitiveColumn',
  'duplicateCells',
  'noopFixes',
  'malformed',
])
const diagnostics = once((v) => {
  if (!isPlainObject(v) || !onlyKnownKeys(v, DIAGNOSTICS)) return false
  return (
    arrayOf(v.wrongCell, cellIssue) &&
    arrayOf(v.wrongValue, cellIssue) &&
    arrayOf(v.overRepair, cellIssue) &&
    arrayOf(v.missedRepair, cellIssue) &&
    arrayOf(v.caseInsensitiveColumn, cellIssue) &&
    count(v.duplicateCells) &&
    count(v.noopFixes) &&
    arrayOf(v.malformed, str)
  )
})

const FIX = keys(['row', 'column', 'newValue'], ['reason'])
const fix = (v: unknown): boolean =>
  isPlainObject(v) &&
  onlyKnownKeys(v, FIX) &&
  count(v.row) &&
  str(v.column) &&
  str(v.newValue) &&
  (!('reason' in v) || str(v.reason))

const REPAIR = keys([...PRF, 'detection', 'diagnostics', 'perColumn', 'perKind', 'fixes', 'warnings', 'comparator'])
function repairScore(v: unknown): boolean {
  if (!isPlainObject(v) || !onlyKnownKeys(v, REPAIR) || !prfFields(v)) return false
  return (
    prf(v.detection) &&
    diagnostics(v.diagnostics) &&
    recordOf(v.perColumn, prf) &&
    recordOf(v.perKind, kindRecall) &&
    arrayOf(v.fixes, fix) &&
    arrayOf(v.warnings, str) &&
    str(v.comparator)
  )
}

const MATCHER = keys(['matcher', 'passed', 'negated', 'summary'], ['score', 'repair', 'failure'])
function matcherRecord(v: unknown): boolean {
  if (!isPlainObject(v) || !onlyKnownKeys(v, MATCHER)) return false
  if (!str(v.matcher) || typeof v.passed !== 'boolean' || typeof v.negated !== 'boolean' || !str(v.summary))
    return false
  return (
    (!('score' in v) || num(v.score)) &&
    (!('repair' in v) || repairScore(v.repair)) &&
    (!('failure' in v) || kindMessage(v.failure))
  )
}

const USAGE = keys([...USAGE_FIELDS])
function usage(v: unknown): boolean {
  if (!isPlainObject(v) || !onlyKnownKeys(v, USAGE)) return false
  for (const key of USAGE) if (!nonNegative(v[key])) return false
  return true
}

const FILE_DIGEST = keys(['sha256', 'bytes'], ['path', 'of'])
const DIGESTS_OF = new Set<unknown>(DIGEST_OF)
function fileDigest(v: unknown): boolean {
  if (!isPlainObject(v) || !onlyKnownKeys(v, FILE_DIGEST) || !str(v.sha256) || !count(v.bytes)) return false
  return (!('path' in v) || str(v.path)) && (!('of' in v) || DIGESTS_OF.has(v.of))
}

const ORIGINS = new Set<unknown>(DATASET_ORIGINS)
const optionValue = (v: unknown): boolean => str(v) || num(v) || typeof v === 'boolean'
const DATASET_INFO = keys(
  ['id', 'origin', 'source', 'rows', 'columns', 'columnNames', 'dirtyCells', 'idColumns', 'dirty', 'clean'],
  ['corruptionKinds', 'seed', 'options'],
)
function datasetInfo(v: unknown): boolean {
  if (!isPlainObject(v) || !onlyKnownKeys(v, DATASET_INFO)) return false
  if (
    !str(v.id) ||
    !ORIGINS.has(v.origin) ||
    !str(v.source) ||
    !count(v.rows) ||
    !count(v.columns) ||
    !count(v.dirtyCells)
  )
    return false
  if (!arrayOf(v.columnNames, str) || !arrayOf(v.idColumns, str) || !fileDigest(v.dirty) || !fileDigest(v.clean))
    return false
  return (
    (!('corruptionKinds' in v) || arrayOf(v.corruptionKinds, str)) &&
    (!('seed' in v) || int(v.seed)) &&
    (!('options' in v) || recordOf(v.options, optionValue))
  )
}

const PROVENANCE = keys(['source', 'sha256', 'isolated'], ['isolation'])
const ISOLATION = keys(['level', 'tool', 'version', 'files'])
const LEVELS: ReadonlySet<unknown> = new Set(['sandbox', 'process', 'none'])
const isolation = (v: unknown): boolean =>
  isPlainObject(v) &&
  onlyKnownKeys(v, ISOLATION) &&
  LEVELS.has(v.level) &&
  strOrNull(v.tool) &&
  strOrNull(v.version) &&
  str(v.files)
const provenance = (v: unknown): boolean =>
  isPlainObject(v) &&
  onlyKnownKeys(v, PROVENANCE) &&
  str(v.source) &&
  strOrNull(v.sha256) &&
  typeof v.isolated === 'boolean' &&
  (!('isolation' in v) || isolation(v.isolation))

const META = keys(
  [
    'caseId',
    'suite',
    'dataset',
    'datasetSha256',
    'agent',
    'agentKind',
    'model',
    'provider',
    'category',
    'tags',
    'trial',
    'trials',
    'seed',
    'turn',
    'generation',
    'matchers',
    'metrics',
    'usage',
    'steps',
    'failure',
  ],
  ['datasetInfo', 'agentProvenance', 'llm', 'warnings', 'startedAt'],
)

/** True when `DataforgeMetaSchema` would accept `value` and return an equal copy of it. */
export function isExactDataforgeMeta(value: unknown): value is DataforgeMeta {
  if (!isPlainObject(value) || !onlyKnownKeys(value, META)) return false
  const v = value
  if (!str(v.caseId) || !str(v.suite) || !str(v.dataset) || !str(v.agent) || !str(v.agentKind)) return false
  if (!strOrNull(v.model) || !strOrNull(v.provider) || !strOrNull(v.category) || !strOrNull(v.generation)) return false
  if (!(v.datasetSha256 === null || digests(v.datasetSha256))) return false
  if (
    !count(v.trial) ||
    !(int(v.trials) && (v.trials as number) > 0) ||
    !int(v.seed) ||
    !(v.turn === null || int(v.turn))
  )
    return false
  if (!arrayOf(v.tags, str) || !arrayOf(v.matchers, matcherRecord) || !recordOf(v.metrics, num)) return false
  if (
    !(v.usage === null || usage(v.usage)) ||
    !(v.steps === null || count(v.steps)) ||
    !(v.failure === null || kindMessage(v.failure))
  )
    return false
  return (
    (!('datasetInfo' in v) || datasetInfo(v.datasetInfo)) &&
    (!('agentProvenance' in v) || v.agentProvenance === null || provenance(v.agentProvenance)) &&
    (!('llm' in v) || llmMeta(v.llm)) &&
    (!('warnings' in v) || arrayOf(v.warnings, str)) &&
    (!('startedAt' in v) || str(v.startedAt))
  )
}

const LLM_META = keys(['upstream', 'usageSource', 'calls', 'toolCalls', 'transcript'])
const LLM_CALL = keys([
  'protocol',
  'path',
  'model',
  'stream',
  'promptTokens',
  'completionTokens',
  'latencyMs',
  'cache',
  'status',
  'error',
  'startedAtMs',
])
const PROTOCOLS: ReadonlySet<unknown> = new Set(['openai-chat', 'openai-responses', 'anthropic-messages', 'other'])
const CACHE_STATES: ReadonlySet<unknown> = new Set(['hit', 'live', 'refused'])
const llmCall = (c: unknown): boolean =>
  isPlainObject(c) &&
  onlyKnownKeys(c, LLM_CALL) &&
  PROTOCOLS.has(c.protocol) &&
  str(c.path) &&
  strOrNull(c.model) &&
  typeof c.stream === 'boolean' &&
  nonNegative(c.promptTokens) &&
  nonNegative(c.completionTokens) &&
  nonNegative(c.latencyMs) &&
  CACHE_STATES.has(c.cache) &&
  int(c.status) &&
  strOrNull(c.error) &&
  (c.startedAtMs === null || nonNegative(c.startedAtMs))
// A meta with tool calls or a transcript goes through zod's parse (only trials with model calls or tools have them).
const llmMeta = (v: unknown): boolean =>
  isPlainObject(v) &&
  onlyKnownKeys(v, LLM_META) &&
  str(v.upstream) &&
  (v.usageSource === null || v.usageSource === 'gateway' || v.usageSource === 'agent') &&
  arrayOf(v.calls, llmCall) &&
  (v.toolCalls === undefined || (Array.isArray(v.toolCalls) && v.toolCalls.length === 0)) &&
  (v.transcript === undefined || v.transcript === null)
