import type { Test, TestContext } from '@vitest/runner'
import { afterAll, describe, test as vitestTest } from 'vitest'
import type { DataAgent } from '../core/data-agent.js'
import { InputError } from '../core/errors.js'
import type { QaCase, QaSuite } from '../datasets/questions/types.js'
import { turnId, turnNumber, turnsOf } from '../datasets/questions/types.js'
import type { QaTrialSession } from '../run/run-qa-trial.js'
import { withQuestionAnnotated } from './annotate.js'
import { metaOf, recordCountersOn, recordFailureOn, recordUsageOn, runInTest } from './current.js'
import { trialTestName } from './eval-case.js'
import { newMeta } from '../cases/new-meta.js'

export interface QaSuiteRunOptions {
  /** A data agent, or a name as in `dataforge-evals qa --agent` (`mock-qa`, `refuse`, a provider preset). */
  agent: DataAgent | string
  /** Repeated samples of every case; trial i asks with seed `seed + i`. Default 1. */
  trials?: number
  /** Seed of the suite's data (and of the first trial). Default 1. */
  seed?: number
  /** Suite name in reports and test names; default the built-in name or the suite function's name. */
  name?: string
  /** Per-question timeout in ms (the question's signal aborts, the turn fails as `timeout`). Default 60000. */
  timeout?: number
  generation?: string
  /** WikiTableQuestions: a full release folder, and a seeded sample size. */
  dataDir?: string
  limit?: number
}

const DEFAULT_TIMEOUT_MS = 60_000

/**
 * Registers a question suite as tests: a `describe` named after the suite holding one test per case (or
 * conversation turn, `id#t<n>`) and trial, named `id [trial i/N · seed s]`. Each test is recorded like an
 * `evalCase` run: identity, usage, steps, failures and the grader's verdict (through `toPass`), so the
 * reporter builds the same RunRecords as the `qa` command. A conversation's turns share one session per
 * trial and are asked in order; a failed turn does not stop the later ones.
 */
export function qaSuite(suite: QaSuite | QaCase[] | string, options: QaSuiteRunOptions): void {
  const trials = options.trials ?? 1
  const seed = options.seed ?? 1
  if (!Number.isInteger(trials) || trials < 1) throw new InputError(`qaSuite: trials must be a positive integer, got ${String(options.trials)}`)
  if (!Number.isSafeInteger(seed)) throw new InputError(`qaSuite: seed must be an integer, got ${String(options.seed)}`)
  if (options.agent === undefined || options.agent === null || options.agent === '') throw new InputError('qaSuite: agent is required')
  const name = options.name ?? suiteName(suite)
  const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS

  describe(name, async () => {
    // The trial path (and the answer schema's zod) loads with the first suite: plain evalCase files do not pay for it.
    const [cases, agent, { QaTrialSession, qaDataDigest }] = await Promise.all([
      casesOf(suite, { seed, dataDir: options.dataDir, limit: options.limit }),
      agentOf(options.agent),
      import('../run/run-qa-trial.js'),
    ])
    const sessions: QaTrialSession[] = []
    afterAll(async () => {
      await Promise.all(sessions.map((s) => s.close()))
    })
    for (const qaCase of cases) {
      for (let trial = 0; trial < trials; trial++) {
        const trialSeed = seed + trial
        const session = new QaTrialSession(agent, qaCase, { seed: trialSeed, timeoutMs })
        sessions.push(session)
        turnsOf(qaCase).forEach(({ question, grader }, index) => {
          const meta = newMeta({
            caseId: qaCase.id,
            suite: name,
            dataset: name,
            agent: agent.name,
            agentKind: agent.kind ?? 'custom',
            model: agent.model ?? null,
            provider: agent.provider ?? null,
            category: qaCase.category,
            trial,
            trials,
            seed: trialSeed,
            turn: turnNumber(qaCase, index),
            generation: options.generation ?? null,
          })
          const testName = trialTestName(turnId(qaCase, index), trial, trials, trialSeed)
          vitestTest(testName, { timeout: timeoutMs * (index + 1) + 5_000, meta: { dataforge: meta } }, async (context: TestContext) => {
            const test = context.task as Test
            await runInTest(test, async () => {
              const digest = qaDataDigest(qaCase)
              metaOf(test).datasetSha256 = { dirty: digest, clean: digest }
              // The question is annotated on failed turns (every turn under DATAFORGE_ANNOTATE=all).
              await withQuestionAnnotated(test, `${turnId(qaCase, index)}: ${question}`, async () => {
                const outcome = await session.turn(index)
                if ('error' in outcome) {
                  recordFailureOn(test, outcome.error)
                  throw outcome.error
                }
                const { answer } = outcome
                recordUsageOn(test, answer.usage, answer.steps ?? 1, answer.model)
                recordCountersOn(test, answer.metrics)
                await context.expect(answer).toPass(grader)
              })
            })
          })
        })
      }
    }
  })
}

function suiteName(suite: QaSuite | QaCase[] | string): string {
  if (typeof suite === 'string') return suite
  if (typeof suite === 'function' && suite.name) return suite.name.replace(/Suite$/, '') || 'qa'
  return 'qa'
}

async function casesOf(suite: QaSuite | QaCase[] | string, opts: { seed: number; dataDir?: string; limit?: number }): Promise<QaCase[]> {
  const suiteOpts = { seed: opts.seed, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), ...(opts.limit !== undefined ? { limit: opts.limit } : {}) }
  if (typeof suite === 'string') {
    const { loadQaSuite } = await import('../datasets/questions/index.js')
    return loadQaSuite(suite, suiteOpts)
  }
  const cases = Array.isArray(suite) ? suite : await suite(suiteOpts)
  if (!Array.isArray(cases) || cases.length === 0) throw new InputError('qaSuite: the suite returned no cases')
  return cases
}

async function agentOf(spec: DataAgent | string): Promise<DataAgent> {
  if (typeof spec !== 'string') {
    if (typeof spec.session !== 'function') throw new InputError('qaSuite: agent must be a data agent with session(tables)')
    return spec
  }
  const { resolveDataAgentSpec } = await import('../adapters/data-agents.js')
  return resolveDataAgentSpec(spec, { cwd: process.cwd(), providerOptions: { cwd: process.cwd() } })
}
