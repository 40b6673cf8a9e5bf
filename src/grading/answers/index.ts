export { parseNumber, findNumbers, extractNumbers } from './numbers.js'
export type { NumberMatch, NumberOptions } from './numbers.js'
export { answerNumberFromText, ANSWER_MARKERS } from './answer-number.js'
export type { AnswerNumber } from './answer-number.js'
export { numeric } from './numeric.js'
export type { NumericOptions } from './numeric.js'
export { contains } from './contains.js'
export type { ContainsOptions } from './contains.js'
export { exact } from './exact.js'
export { tableEquals } from './table-equals.js'
export type { TableEqualsOptions } from './table-equals.js'
export { chartProduced } from './chart.js'
export type { ChartOptions } from './chart.js'
export { checkVegaLite } from './vega-lite.js'
export { vegaLiteNames, type VegaLiteNames } from './vega-lite-names.js'
export type { SpecCheck } from './vega-lite.js'
export { refuses, REFUSAL_PHRASES } from './refuses.js'
export { allOf, anyOf } from './compose.js'
export type { SyncGrader, AsyncGrader } from './grader-types.js'
export {
  wtqAnswer,
  normalizeWtq,
  toWtqValue,
  toWtqValueList,
  checkDenotation,
  predictedItems,
  parseWtqNumber,
  parseWtqDate,
  wtqValuesMatch,
} from './wtq.js'
export type { WtqTarget, WtqValue } from './wtq.js'
export {
  dabenchAnswer,
  extractDabenchBlocks,
  dabenchEqual,
  parsePythonFloat,
  dabenchResponsePairs,
  type DabenchLabel,
} from './dabench.js'
