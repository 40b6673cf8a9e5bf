import { dabenchAnswer } from '../../grading/answers/dabench.js'
import { DABENCH_CONCEPT_PREFIX, DABENCH_SUB_ANSWERS } from './scores.js'
import { registerCase, setExpectedAnswer } from '../questions/expected.js'
import type { QaCase, QaSuiteOptions, SingleQaCase } from '../questions/types.js'
import { type DabenchQuestion, loadDabenchSync } from './load.js'

/** The name of a question's table in the agent's session. */
const DABENCH_TABLE = 'table'

/**
 * The question as asked: the question, its constraints and its format text, then where the data is and the
 * official reformat prompt's rule (every `@answer_name[answer]`, in order).
 */
export function dabenchPrompt(q: Pick<DabenchQuestion, 'question' | 'constraints' | 'format' | 'fileName'>): string {
  return [
    q.question,
    '',
    `Constraints: ${q.constraints}`,
    '',
    `Format: ${q.format}`,
    '',
    `The data is the table "${DABENCH_TABLE}" (the CSV file ${q.fileName}, read with pandas' defaults).`,
    'Your answer must contain every "@answer_name[answer]" the format names, in the order it names them.',
  ].join('\n')
}

/** One DABench question as a single-shot case `dabench-<id>` over its CSV (named `table`); its category is the level. */
export function dabenchCase(q: DabenchQuestion): SingleQaCase {
  const metrics: Record<string, number> = { [DABENCH_SUB_ANSWERS]: q.labels.length }
  for (const concept of q.concepts) metrics[`${DABENCH_CONCEPT_PREFIX}${concept}`] = 1
  const c: SingleQaCase = {
    id: `dabench-${q.id}`,
    category: q.level,
    data: { [DABENCH_TABLE]: q.table },
    question: dabenchPrompt(q),
    grader: dabenchAnswer(q.labels),
    metrics,
  }
  return registerCase(setExpectedAnswer(c, { text: q.labels.map((l) => `@${l.name}[${l.value}]`).join('\n') }))
}

/** The bundled slice, or the full validation set with `dataDir`; `limit` draws a seeded sample. */
export function dabenchSuite(opts: QaSuiteOptions): QaCase[] {
  const questions = loadDabenchSync({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.limit !== undefined ? { limit: opts.limit, seed: opts.seed } : {}),
  })
  // Questions share tables; each case still gets its own data object (the oracle finds its case by it).
  return questions.map(dabenchCase)
}
