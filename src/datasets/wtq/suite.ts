import { setExpectedAnswer, registerCase } from '../questions/expected.js'
import type { QaCase, QaSuiteOptions, SingleQaCase } from '../questions/types.js'
import { wtqAnswer } from '../../grading/answers/wtq.js'
import { loadWtqSync, type WtqExample } from './load.js'

/** One WikiTableQuestions example as a single-shot case over its table (named `table`). */
export function wtqCase(example: WtqExample): SingleQaCase {
  const grader = wtqAnswer({
    values: example.targetValue,
    ...(example.targetCanon ? { canon: example.targetCanon } : {}),
  })
  const category = example.targetValue.length > 1 ? 'list' : example.targetCanonType || 'wtq'
  const value = example.targetValue.length === 1 ? example.targetValue[0]! : [...example.targetValue]
  const c: SingleQaCase = {
    id: example.id,
    category,
    data: { table: example.table },
    question: example.utterance,
    grader,
  }
  return registerCase(setExpectedAnswer(c, { value, text: example.targetValue.join(' | ') }))
}

/** The bundled 200-question slice, or a full release with `dataDir`; `limit` draws a seeded sample. */
export function wtqSuite(opts: QaSuiteOptions): QaCase[] {
  const examples = loadWtqSync({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.limit !== undefined ? { limit: opts.limit, seed: opts.seed } : {}),
  })
  // Questions can share a table; each case still gets its own data object (the oracle finds its case by it).
  return examples.map(wtqCase)
}
