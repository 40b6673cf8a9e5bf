import { InputError } from './errors.js'

/**
 * How deep arrays and objects may nest in JSON a user gives us (run files, manifests, baselines, data suites,
 * price maps, samples). `JSON.parse` takes any depth, but what walks the value afterwards (schemas, canonical
 * JSON, messages quoting it) recurses and would end in a stack overflow: an internal error instead of a line
 * naming the file. Real files nest a few levels; 256 leaves room and keeps every walk far from the stack's end.
 */
export const MAX_JSON_DEPTH = 256

const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Throws an InputError when the JSON text nests arrays or objects deeper than MAX_JSON_DEPTH; its message starts
 * with `where(line)`, the line (1-based, within `text`) where the limit was passed: `file: line 3`, `file:3`. One
 * pass over the characters, brackets inside strings skipped; text too short to be that deep is not scanned.
 * Call it before `JSON.parse` on text from a file.
 */
export function checkJsonDepth(text: string, where: (line: number) => string): void {
  if (text.length <= MAX_JSON_DEPTH) return
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // Strings are jumped over with indexOf (native): scanning them char by char cost 3.6× the JSON.parse.
      i = closingQuote(text, i)
      if (i === -1) return
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH)
        throw new InputError(
          `${where(lineAt(text, i))}: arrays or objects nested more than ${MAX_JSON_DEPTH} levels deep; no file of this kind nests so deep`,
        )
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
  }
}

/** The index of the quote closing the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let j = text.indexOf('"', open + 1); j !== -1; j = text.indexOf('"', j + 1)) {
    let backslashes = 0
    for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++
    if (backslashes % 2 === 0) return j
  }
  return -1
}

function lineAt(text: string, index: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++
  return line
}
