import { InputError } from '../../core/errors.js'
import { wtqSuite } from '../wtq/suite.js'
import { dabenchSuite } from '../dabench/suite.js'
import { bespokeSuite } from './bespoke.js'
import { hardSuite } from './hard.js'
import { largeSuite } from './large.js'
import { messySuite } from './messy.js'
import { seededSample } from './sample.js'
import type { BuiltInQaSuite, QaCase, QaSuite, QaSuiteOptions } from './types.js'

export * from './types.js'
export {
  expectNumber,
  expectText,
  expectList,
  expectTable,
  expectRefusal,
  expectChart,
  turn,
  singleCase,
  conversationCase,
  type Expectation,
} from './build.js'
export { chartUsesFields } from './chart-fields.js'
export { bespokeSuite } from './bespoke.js'
export { hardSuite } from './hard.js'
export { largeSuite, largeEventsTable, largeReadingsTable, LARGE_ROWS, READINGS_ROWS, SNAPSHOT_ROWS } from './large.js'
export { messySuite, messySalesTable, MESSY_RECORDS, MESSY_CATEGORIES } from './messy.js'
export { seededSample } from './sample.js'
export { cleanSales, parseAmount, parseDate, canonicalCategory, isMissing } from './messy-cleaner.js'

/** The built-in question suites, by the name the CLI and `qaSuite` take. */
export const QA_SUITES: Record<string, { suite: QaSuite; description: string }> = {
  bespoke: {
    suite: bespokeSuite,
    description: 'single-shot: aggregation, filter, group-by, ranking, charts, refusals',
  },
  hard: { suite: hardSuite, description: 'joins across 2–4 tables, three-step computations, stateful conversations' },
  large: { suite: largeSuite, description: '100,000-row tables with a snapshot trap (the first rows mislead)' },
  messy: {
    suite: messySuite,
    description: 'currency strings, mixed dates, inconsistent labels, missing values, duplicates',
  },
  wtq: {
    suite: wtqSuite,
    description: 'WikiTableQuestions (bundled 200-question slice or --data-dir release), official evaluator rules',
  },
  dabench: {
    suite: dabenchSuite,
    description:
      'InfiAgent-DABench data analysis (bundled slice or --data-dir validation set), official @name[value] grading',
  },
} satisfies Record<BuiltInQaSuite, { suite: QaSuite; description: string }>

/** The cases of a built-in suite; an unknown name is an InputError listing the known ones. */
export async function loadQaSuite(name: string, opts: QaSuiteOptions): Promise<QaCase[]> {
  return sampled(name, await builtIn(name).suite(opts), opts)
}

/**
 * The same cases, synchronously (every built-in suite builds or reads its cases synchronously): for a test
 * runner that registers a file's tests without awaiting (Jest's `qaSuite`).
 */
export function loadQaSuiteSync(name: string, opts: QaSuiteOptions): QaCase[] {
  const cases = builtIn(name).suite(opts)
  if (cases instanceof Promise) throw new Error(`suite ${name} loads its cases asynchronously`)
  return sampled(name, cases, opts)
}

function builtIn(name: string): { suite: QaSuite } {
  const entry = QA_SUITES[name]
  if (!entry) throw new InputError(`unknown suite "${name}": use one of ${Object.keys(QA_SUITES).join(', ')}`)
  return entry
}

function sampled(name: string, cases: QaCase[], opts: QaSuiteOptions): QaCase[] {
  // wtq and dabench sample their questions before loading their tables; the other suites are sampled here.
  return opts.limit !== undefined && name !== 'wtq' && name !== 'dabench'
    ? seededSample(cases, opts.limit, opts.seed)
    : cases
}
