import { createRequire } from 'node:module'
import type * as Re2js from 're2js'
import { InputError } from '../../core/errors.js'

const requireRe2 = createRequire(import.meta.url)
let loaded: typeof Re2js.RE2JS | undefined

/**
 * A rules `pattern` compiled for RE2 (re2js: a pure-JavaScript port of RE2, linear in the sample's length
 * whatever the pattern). Patterns come from spec files and samples from agents, so a backtracking engine
 * would let `(a+)+$` over `"a"*40+"!"` run for minutes. RE2 syntax has no backreferences or lookaround;
 * a pattern that needs them is refused here, naming the field. Loaded on first use, like zod.
 */
export function linearPattern(pattern: string, where: string): (value: string) => boolean {
  loaded ??= (requireRe2('re2js') as typeof Re2js).RE2JS
  let compiled: Re2js.RE2JS
  try {
    compiled = loaded.compile(pattern)
  } catch (error) {
    throw new InputError(
      `${where}: not a valid regular expression for the linear-time engine (RE2 syntax: no backreferences or lookaround): ${(error as Error).message}`,
    )
  }
  // `find()` like RegExp.test: the pattern may match anywhere unless anchored with ^ and $.
  return (value) => compiled.matcher(value).find()
}
