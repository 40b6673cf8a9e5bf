import type { Answer, GradeResult } from '../core/answer.js'
import { AnswerSchema } from '../core/answer.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { tablesJsonSha256 } from '../core/hash.js'
import type { RunRecord } from '../core/run-record.js'
import type { Transcript } from '../core/transcript.js'
import { addUsage, emptyUsage } from '../core/usage.js'
import type { QaCase } from '../datasets/questions/types.js'
import { turnNumber, turnsOf } from '../datasets/questions/types.js'
import { buildRunRecord, type RecordOutcome, type RecordProvenance } from '../core/build-run-record.js'
import { agentIdentity, trialIdentity } from '../core/trial-identity.js'
import { classifyFailure } from './classify-failure.js'
import { withTimeout } from './with-timeout.js'
import { ownUpstreamOf } from '../gateway/agent-upstream.js'
import type { GatewayTrial } from '../gateway/gateway.js'
import type { LlmConfig, LlmOutcome } from '../gateway/trial-llm.js'

/**
 * What one question of a trial produced: an answer, or the error that replaced it, and how long it took; with an
 * upstream, what the gateway saw while it was asked.
 */
type TurnOutcome = ({ answer: Answer; runtimeS: number } | { error: unknown; runtimeS: number }) & {
  llm?: LlmOutcome
  startedAt?: string
}

/**
 * One session of `agent` over a case's data, shared by the CLI and `qaSuite`. Questions are asked strictly
 * in order, whatever order the turns are requested in (a turn asked first asks the ones before it); each
 * question has its own timeout and abort signal, so a hung question fails its turn only; a failed turn does
 * not stop later ones. The session opens on the first question and `close()` ends it.
 */
export class QaTrialSession {
  private session: Promise<DataSession> | null = null
  private readonly outcomes: Array<Promise<TurnOutcome>> = []
  private llmTrial: Promise<GatewayTrial | null> | null = null

  constructor(
    private readonly agent: DataAgent,
    private readonly qaCase: QaCase,
    /** `llm`: the run's upstream; the session is one gateway trial, each turn gets the calls made while it was asked. */
    private readonly opts: {
      seed: number
      timeoutMs: number | null
      signal?: AbortSignal
      llm?: LlmConfig | null
      trial?: number
    },
  ) {}

  turn(index: number): Promise<TurnOutcome> {
    const turns = turnsOf(this.qaCase)
    if (index < 0 || index >= turns.length) throw new RangeError(`case ${this.qaCase.id} has no turn ${index + 1}`)
    for (let i = this.outcomes.length; i <= index; i++) {
      const previous = i === 0 ? Promise.resolve() : this.outcomes[i - 1]!.then(() => undefined)
      const question = turns[i]!.question
      this.outcomes[i] = previous.then(() => this.ask(question))
    }
    return this.outcomes[index]!
  }

  private async ask(question: string): Promise<TurnOutcome> {
    const outcome = await this.askOnce(question)
    const trial = await this.llmTrial?.catch(() => null)
    if (!trial) return outcome
    // The turn is answered: its calls still in flight are cancelled and counted to it.
    trial.cancelInFlight()
    const gw = await import('../gateway/trial-llm.js')
    return { ...outcome, llm: gw.outcomeSince(trial, this.callsBefore, trial.ledger.calls.length) }
  }

  private callsBefore = 0

  private async askOnce(question: string): Promise<TurnOutcome> {
    const started = performance.now()
    const startedAt = new Date().toISOString()
    const runtimeS = () => (performance.now() - started) / 1000
    this.callsBefore = (await this.llmTrial?.catch(() => null))?.ledger.calls.length ?? 0
    try {
      const raw = await withTimeout(
        this.opts.timeoutMs,
        async (signal) => (await this.open()).ask(question, { signal }),
        this.opts.signal,
      )
      const parsed = AnswerSchema.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new TypeError(
          `agent returned something that is not an Answer (${issue ? `${issue.path.join('.') || 'answer'}: ${issue.message}` : 'invalid'})`,
        )
      }
      return { answer: parsed.data, runtimeS: runtimeS(), startedAt }
    } catch (error) {
      return { error, runtimeS: runtimeS(), startedAt }
    }
  }

  private open(): Promise<DataSession> {
    this.session ??= Promise.resolve().then(async () => {
      const trial = await this.openLlm()
      return this.agent.session(this.qaCase.data, { seed: this.opts.seed, ...(trial ? { llm: trial.llm } : {}) })
    })
    return this.session
  }

  private openLlm(): Promise<GatewayTrial | null> {
    // A built-in model agent brings its preset's upstream; any other agent takes the run's.
    const config = ownUpstreamOf(this.agent) ?? this.opts.llm
    this.llmTrial ??= config
      ? import('../gateway/trial-llm.js').then((gw) =>
          gw.openLlmTrial(config, { caseId: this.qaCase.id, trial: this.opts.trial ?? 0, seed: this.opts.seed }),
        )
      : Promise.resolve(null)
    return this.llmTrial
  }

  async close(): Promise<void> {
    const opened = await this.session?.catch(() => null)
    await opened?.close?.()
    ;(await this.llmTrial?.catch(() => null))?.finish()
  }
}

const digests = new WeakMap<object, string>()

/** `tablesJsonSha256` of a case's tables (its `RunRecord.datasetSha256`), computed once per data object. */
export function qaDataDigest(c: QaCase): string {
  let digest = digests.get(c.data)
  if (!digest) {
    digest = tablesJsonSha256(c.data)
    digests.set(c.data, digest)
  }
  return digest
}

interface QaTrialInput {
  agent: DataAgent
  qaCase: QaCase
  suite: string
  trial: number
  seed: number
  timeoutMs: number | null
  provenance: RecordProvenance
  generation?: string | null
  signal?: AbortSignal
  /** The run's model upstream (`--llm`): the session goes through the gateway. */
  llm?: LlmConfig | null
  /** Called with each turn's transcript (the one its record's `transcriptId` names). */
  onTranscript?: (transcript: Transcript) => void
}

/**
 * One trial of a case for the CLI: every turn asked in one session and graded, one RunRecord per turn. Never
 * throws for agent misbehaviour: a timeout, an exception or output that is not an Answer is a failed record
 * with its kind and message; a wrong answer is a completed, incorrect record carrying the grader's detail.
 */
export async function runQaTrial(input: QaTrialInput): Promise<RunRecord[]> {
  const { qaCase, agent } = input
  const session = new QaTrialSession(agent, qaCase, {
    seed: input.seed,
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    llm: input.llm ?? null,
    trial: input.trial,
  })
  const gw = input.llm || ownUpstreamOf(agent) ? await import('../gateway/trial-llm.js') : null
  const withLlm = (outcome: RecordOutcome, llm: LlmOutcome | undefined): RecordOutcome => {
    if (!gw) return outcome
    const out = gw.applyLlmOutcome(outcome, llm ?? null)
    if (out.transcript) input.onTranscript?.(out.transcript)
    return out
  }
  const digest = qaDataDigest(qaCase)
  const records: RunRecord[] = []
  try {
    const turns = turnsOf(qaCase)
    for (let index = 0; index < turns.length; index++) {
      const outcome = await session.turn(index)
      const identity = trialIdentity({
        caseId: qaCase.id,
        turn: turnNumber(qaCase, index),
        suite: input.suite,
        dataset: input.suite,
        category: qaCase.category,
        ...agentIdentity(agent),
        trial: input.trial,
        seed: input.seed,
        generation: input.generation,
        datasetSha256: { dirty: digest, clean: digest },
      })
      if ('error' in outcome) {
        const { metrics: counters, ...failure } = classifyFailure(outcome.error)
        // The case's facts stay as the case states them, whatever counters the agent kept.
        const metrics = counters || qaCase.metrics ? { metrics: { ...counters, ...qaCase.metrics } } : {}
        records.push(
          buildRunRecord(
            identity,
            withLlm(
              {
                status: 'failed',
                ...failure,
                ...metrics,
                runtimeS: outcome.runtimeS,
                startedAt: outcome.startedAt ?? null,
              },
              outcome.llm,
            ),
            input.provenance,
          ),
        )
        continue
      }
      const { answer } = outcome
      const verdict = await gradeSafely(turns[index]!.grader, answer)
      records.push(
        buildRunRecord(
          { ...identity, model: identity.model ?? answer.model ?? null },
          withLlm(
            {
              status: 'ok',
              correct: verdict.passed,
              validationError: verdict.passed ? null : verdict.detail,
              metrics: {
                ...answer.metrics,
                ...(verdict.score === undefined ? {} : { score: verdict.score }),
                ...qaCase.metrics,
              },
              steps: answer.steps ?? 1,
              runtimeS: outcome.runtimeS,
              startedAt: outcome.startedAt ?? null,
              usage: addUsage(emptyUsage(), answer.usage ?? {}),
            },
            outcome.llm,
          ),
          input.provenance,
        ),
      )
    }
  } finally {
    await session.close()
  }
  return records
}

/** A grader that throws is a harness bug, reported as the verdict's detail rather than crashing the run. */
async function gradeSafely(
  grader: (a: Answer) => GradeResult | Promise<GradeResult>,
  answer: Answer,
): Promise<GradeResult> {
  try {
    return await grader(answer)
  } catch (error) {
    return { passed: false, detail: `grader threw: ${error instanceof Error ? error.message : String(error)}` }
  }
}
