/** The one trial path: invoke an agent, enforce time, normalize output; the resumable run loop and its journal. */

export { Containment } from './contain.js'
export { invokeRepairAgent } from './invoke-agent.js'
export { journalKeyDir } from './journal-integrity.js'
export { sanitizeUsage } from './normalize-output.js'
export { findInterruptedRun, readRecordedRun, resumeOptions, runEnvOf, type RunOptions } from './resume.js'
export { type EvaluationPlan, runEvaluation } from './run-evaluation.js'
export { openRunFolder } from './run-folder.js'
export { qaDataDigest, QaTrialSession, runQaTrial } from './run-qa-trial.js'
export { classifyFailure, type ClassifiedFailure } from './classify-failure.js'
export { runRepairTrial } from './run-repair-trial.js'
export { checkTimeoutMs, MAX_TIMER_MS, type ParentSignal, withLazyTimeout, runnerTimeoutMs } from './with-timeout.js'
