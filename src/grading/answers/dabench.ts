import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'
import { show } from './describe.js'
import type { SyncGrader } from './grader-types.js'

/**
 * Grading by the rules of InfiAgent-DABench's official evaluator (`examples/DA-Agent/eval_closed_form.py`,
 * InfiAgent/InfiAgent):
 *
 * - Extraction. Sub-answers are read from the response with Python's `re.findall(r"@(\w+)\[(.*?)\]", …)`: a
 *   name of Unicode word characters, then the shortest bracketed value on the same line (so `@x[a]b]` reads
 *   `a`). When a name appears twice the last one counts (`dict(zip(names, answers))`).
 * - Comparison (`is_equal`). A sub-answer is right when its string equals the label's exactly, or when both
 *   parse with Python's `float()` and differ by less than 1e-6. A missing sub-answer is wrong.
 * - The labels are a dict too: a label naming an answer twice keeps the last value (question 734 of the
 *   validation set does this), and the question has one sub-answer per distinct name.
 * - A question is right when every sub-answer is; its score is the share of right sub-answers (PSAQ's term).
 *
 * The response is the answer's text. An agent that returns a structured value is read too (see
 * `dabenchResponsePairs`); what the value says overrides the text for the same name.
 */

/** One expected sub-answer: `@name[value]`. */
export interface DabenchLabel {
  name: string
  value: string
}

/** Python's `\w` in a str pattern: letters and numbers of any script, and the underscore. */
const NAME = /^[\p{L}\p{N}_]+$/u
/** `@(\w+)\[(.*?)\]`; Python's `.` stops only at `\n` (JavaScript's would stop at `\r`, U+2028 and U+2029 too). */
const BLOCK = /@([\p{L}\p{N}_]+)\[([^\n]*?)\]/gu

/** The `@name[value]` blocks of a text, in order (the evaluator's `extract_format`). */
export function extractDabenchBlocks(text: string): Array<[string, string]> {
  return [...text.matchAll(BLOCK)].map((m) => [m[1]!, m[2]!])
}

/** Python's whitespace (`str.isspace`), which `float()` strips from both ends. */
const PY_SPACE =
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g
const DIGITS = String.raw`\d(?:_?\d)*`
const PY_FLOAT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?)$`,
)
const PY_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i
const UNICODE_DIGIT = /\p{Nd}/u

/** A Unicode decimal digit's value: Nd digits come in runs of ten starting at zero, as Python's `float()` reads them. */
function asciiDigits(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text
  let out = ''
  for (const ch of text) {
    const cp = ch.codePointAt(0)!
    if (cp > 0x7f && UNICODE_DIGIT.test(ch)) {
      let start = cp
      while (UNICODE_DIGIT.test(String.fromCodePoint(start - 1))) start--
      out += String((cp - start) % 10)
    } else out += ch
  }
  return out
}

/**
 * Python's `float(text)`, or null where it raises: surrounding whitespace stripped, underscores between digits,
 * `inf`/`infinity`/`nan` in any case, any script's decimal digits. No thousands separators, no hex.
 */
export function parsePythonFloat(text: string): number | null {
  const body = asciiDigits(text).replace(PY_SPACE, '')
  const special = PY_SPECIAL.exec(body)
  if (special)
    return special[2]!.toLowerCase() === 'nan'
      ? Number.NaN
      : special[1] === '-'
        ? Number.NEGATIVE_INFINITY
        : Number.POSITIVE_INFINITY
  if (!PY_FLOAT.test(body)) return null
  return Number(body.replaceAll('_', ''))
}

/** The evaluator's `is_equal(response, label)`; a missing response (`None`) is never equal. */
export function dabenchEqual(response: string | undefined, label: string): boolean {
  if (response === undefined) return false
  if (response === label) return true
  const a = parsePythonFloat(response)
  const b = parsePythonFloat(label)
  // abs(nan) < 1e-6 and abs(inf - inf) < 1e-6 are False in Python as here.
  return a !== null && b !== null && Math.abs(a - b) < 1e-6
}

/** Python's `str()` of a scalar an agent returned as its value. */
function pyStr(v: unknown): string | null {
  if (typeof v === 'string') return v
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'number') return pyNumber(v)
  return null
}

function pyNumber(v: number): string {
  if (Number.isNaN(v)) return 'nan'
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf'
  return String(v)
}

function isTable(x: unknown): x is Table {
  return typeof x === 'object' && x !== null && Array.isArray((x as Table).columns) && Array.isArray((x as Table).rows)
}

/**
 * The `@name[value]` pairs of an answer, in the order they count (a later pair overrides an earlier one of the
 * same name):
 *
 * 1. the blocks in `text`;
 * 2. then the structured `value`: a string is read for blocks like the text; a list contributes its strings'
 *    blocks and its `[name, value]` pairs; a table with one row is read as names (the columns) over values (the
 *    cells), any other two-column table as one `name, value` pair per row;
 * 3. a scalar value (a string without blocks, a number, a boolean) answers the question's only sub-answer when
 *    it has exactly one (`onlyName`); it is ignored for a question with several.
 */
export function dabenchResponsePairs(answer: Answer, onlyName?: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = answer.text === undefined ? [] : extractDabenchBlocks(answer.text)
  const value: unknown = answer.value
  if (value === undefined || value === null) return pairs
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'string') pairs.push(...extractDabenchBlocks(item))
      else if (Array.isArray(item) && item.length === 2 && typeof item[0] === 'string') {
        const v = pyStr(item[1])
        if (v !== null) pairs.push([item[0], v])
      }
    }
    return pairs
  }
  if (isTable(value)) {
    if (value.rows.length === 1) {
      const row = value.rows[0]!
      for (let i = 0; i < value.columns.length; i++) pairs.push([value.columns[i]!, row[i] ?? ''])
    } else if (value.columns.length === 2) for (const row of value.rows) pairs.push([row[0] ?? '', row[1] ?? ''])
    return pairs
  }
  const blocks = typeof value === 'string' ? extractDabenchBlocks(value) : []
  if (blocks.length) pairs.push(...blocks)
  else if (onlyName !== undefined) {
    const v = pyStr(value)
    if (v !== null) pairs.push([onlyName, v])
  }
  return pairs
}

/** One sub-answer's verdict. */
interface DabenchSubVerdict {
  name: string
  expected: string
  /** What the response gave for this name; undefined when it gave nothing. */
  found: string | undefined
  correct: boolean
}

/** The evaluator's verdicts for one question: one per distinct label name, in the labels' order. */
function gradeDabenchPairs(
  labels: readonly DabenchLabel[],
  pairs: ReadonlyArray<readonly [string, string]>,
): DabenchSubVerdict[] {
  const expected = new Map<string, string>()
  for (const l of labels) expected.set(l.name, l.value)
  const found = new Map<string, string>()
  for (const [name, value] of pairs) found.set(name, value)
  return [...expected].map(([name, value]) => ({
    name,
    expected: value,
    found: found.get(name),
    correct: dabenchEqual(found.get(name), value),
  }))
}

/** The distinct sub-answers of a question's labels (last value of a repeated name), as the evaluator counts them. */
export function distinctDabenchLabels(labels: readonly DabenchLabel[]): DabenchLabel[] {
  const byName = new Map<string, string>()
  for (const l of labels) byName.set(l.name, l.value)
  return [...byName].map(([name, value]) => ({ name, value }))
}

/**
 * A grader for one DABench question (see the rules above). `score` is the share of right sub-answers; each
 * sub-answer is a part. A refusal or an answer without a single block is wrong on every sub-answer.
 */
export function dabenchAnswer(labels: readonly DabenchLabel[]): SyncGrader {
  if (!Array.isArray(labels) || labels.length === 0)
    throw new InputError('dabenchAnswer(): labels must be a non-empty list of { name, value }')
  for (const l of labels) {
    if (typeof l?.name !== 'string' || !NAME.test(l.name))
      throw new InputError(
        `dabenchAnswer(): answer name ${show(l?.name)} is not a word (@name[…] could never match it)`,
      )
    if (typeof l.value !== 'string')
      throw new InputError(`dabenchAnswer(): the value of ${l.name} must be a string, got ${show(l.value)}`)
  }
  const distinct = distinctDabenchLabels(labels)
  const onlyName = distinct.length === 1 ? distinct[0]!.name : undefined
  return (answer: Answer): GradeResult => {
    const verdicts = gradeDabenchPairs(distinct, answer.refused === true ? [] : dabenchResponsePairs(answer, onlyName))
    const right = verdicts.filter((v) => v.correct).length
    const parts = verdicts.map((v) => ({ passed: v.correct, detail: subDetail(v), score: v.correct ? 1 : 0 }))
    const passed = right === verdicts.length
    const head = `${right}/${verdicts.length} sub-answers right`
    const wrong = verdicts.filter((v) => !v.correct).map(subDetail)
    const refused = answer.refused === true ? ' (the agent refused)' : ''
    return {
      passed,
      score: right / verdicts.length,
      parts,
      detail: passed
        ? `${head}: ${verdicts.map((v) => `@${v.name}[${v.found}]`).join(' ')}`
        : `${head}${refused}: ${wrong.join('; ')}`,
    }
  }
}

function subDetail(v: DabenchSubVerdict): string {
  if (v.correct) return `@${v.name} = ${show(v.found)} matches`
  return v.found === undefined
    ? `@${v.name}: expected ${show(v.expected)}, missing`
    : `@${v.name}: expected ${show(v.expected)}, found ${show(v.found)}`
}
