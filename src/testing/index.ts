/** What tests of the harness need and agents must never have: the privileged oracles. */
/**
 * `dataforge-evals/testing`: what tests of the harness itself need and agents must never have. Everything here
 * returns clean values. A run whose agent reads the truth through these is recorded as an `oracle` run.
 */
export { mockAgent } from './mock-oracle.js'
export { revealTruth as groundTruthOf, type GroundTruth, type Correction } from '../core/ground-truth.js'
