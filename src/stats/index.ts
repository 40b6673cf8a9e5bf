/** Statistics, pure: intervals, paired tests, power, goodness of fit, number formats. */
export { Z_95, type ProportionInterval, wilsonInterval } from './wilson.js'
export {
  type BootstrapOptions,
  type MeanInterval,
  type PairedBootstrapResult,
  bootstrapMeanInterval,
  pairedBootstrap,
} from './bootstrap.js'
export { MCNEMAR_EXACT_MAX, type McNemarResult, mcnemar } from './mcnemar.js'
export {
  PERMUTATION_EXACT_MAX_N,
  type PairedTestOptions,
  type PairedTestResult,
  pairedPermutationTest,
  signFlipTest,
} from './permutation.js'
export { passAtK, passHatK } from './pass-at-k.js'
export { erfc, chiSquareSurvival1, binomialHalfCdf } from './special.js'
export { mean, meanOrNull, quantileSorted } from './quantile.js'
export {
  stars,
  formatNumber,
  formatSigned,
  formatDelta,
  formatInterval,
  formatP,
  formatSeconds,
  secondsPhrase,
  counted,
  formatPClause,
} from './number-format.js'
export { type OutcomeSummary, type SummarizeOptions, summarizeOutcomes } from './outcomes.js'
export {
  type CaseTrialStats,
  type RepeatGateResult,
  caseTrialStats,
  flakyCases,
  repeatGate,
} from './case-trials.js'
export {
  type Power,
  mcnemarDropPower,
  mcnemarMde,
  signFlipMde,
  tTestPower,
  minimumDetectableEffect,
  normalQuantile,
  pairedPower,
  pairsNeeded,
  sampleSd,
  smallestReachableP,
  unitsNeeded,
} from './power.js'
export {
  type ClusterRobustMean,
  type ClusteredMeanInterval,
  type ClusteredProportion,
  type IntervalMethod,
  clusterBootstrapMeanInterval,
  clusterRobustMean,
  clusterTMeanInterval,
  clusteredProportion,
} from './clustered.js'
export {
  TWO_SAMPLE_EXACT_MAX_SPLITS,
  type TwoSampleResult,
  choose,
  twoSamplePermutationTest,
  twoSampleSmallestP,
} from './two-sample.js'
export { type UnitKind, type UnitRow, type UnitSummary, assignUnits, unitsText, plural } from './units.js'
export { largestRemainder } from './largest-remainder.js'
export { logGamma, upperGammaQ, chiSquareSurvival } from './incomplete-gamma.js'
export {
  EXACT_MULTINOMIAL_MAX_OUTCOMES,
  type GoodnessOfFit,
  chiSquareGoodnessOfFit,
  exactMultinomialTest,
  goodnessOfFit,
  multinomialOutcomeCount,
} from './goodness-of-fit.js'
export { holmAdjust } from './holm.js'
export { incompleteBeta, tCdf, tQuantile } from './t-dist.js'
