import type { Answer, GradeResult } from '../core/answer.js'
import { AnswerSchema } from '../core/answer.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { tablesJsonSha256 } from '../core/hash.js'
import type { RunRecord } from '../core/run-record.js'
import { addUsage, emptyUsage } from '../core/usage.js'
import type { QaCase } from '../datasets/questions/types.js'
import { turnNumber, turnsOf } from '../datasets/questions/types.js'
import { buildRunRecord, type RecordProvenance } from '../core/build-run-record.js'
import { classifyFailure } from './run-repair-trial.js'
import { withTimeout } from './with-timeout.js'

/** What one question of a trial produced: an answer, or the error that replaced it, and how long it took. */
export type TurnOutcome = { answer: Answer; runtimeS: number } | { error: unknown; runtimeS: number }

/**
 * One session of `agent` over a case's data, shared by the CLI and `qaSuite`. Questions are asked strictly
 * in order, whatever order the turns are requested in (a turn asked first asks the ones before it); each
 * question has its own timeout and abort signal, so a hung question fails its turn only; a failed turn does
 * not stop later ones. The session opens on the first question and `close()` ends it.
 */
export class QaTrialSession {
  private session: Promise<DataSession> | null = null
  private readonly outcomes: Array<Promise<TurnOutcome>> = []

  constructor(
    private readonly agent: DataAgent,
    private readonly qaCase: QaCase,
    private readonly opts: { seed: number; timeoutMs: number | null; signal?: AbortSignal },
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
    const started = performance.now()
    const runtimeS = () => (performance.now() - started) / 1000
    try {
      const raw = await withTimeout(
        this.opts.timeoutMs,
        async (signal) => (await this.open()).ask(question, { signal }),
        this.opts.signal,
      )
      const parsed = AnswerSchema.safeParse(raw)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new TypeError(`agent returned something that is not an Answer (${issue ? `${issue.path.join('.') || 'answer'}: ${issue.message}` : 'invalid'})`)
      }
      return { answer: parsed.data, runtimeS: runtimeS() }
    } catch (error) {
      return { error, runtimeS: runtimeS() }
    }
  }

  private open(): Promise<DataSession> {
    this.session ??= Promise.resolve().then(() => this.agent.session(this.qaCase.data, { seed: this.opts.seed }))
    return this.session
  }

  async close(): Promise<void> {
    const opened = await this.session?.catch(() => null)
    await opened?.close?.()
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

export interface QaTrialInput {
  agent: DataAgent
  qaCase: QaCase
  suite: string
  trial: number
  seed: number
  timeoutMs: number | null
  provenance: RecordProvenance
  generation?: string | null
  signal?: AbortSignal
}

/**
 * One trial of a case for the CLI: every turn asked in one session and graded, one RunRecord per turn. Never
 * throws for agent misbehaviour: a timeout, an exception or output that is not an Answer is a failed record
 * with its kind and message; a wrong answer is a completed, incorrect record carrying the grader's detail.
 */
export async function runQaTrial(input: QaTrialInput): Promise<RunRecord[]> {
  const { qaCase, agent } = input
  const session = new QaTrialSession(agent, qaCase, { seed: input.seed, timeoutMs: input.timeoutMs, signal: input.signal })
  const digest = qaDataDigest(qaCase)
  const records: RunRecord[] = []
  try {
    const turns = turnsOf(qaCase)
    for (let index = 0; index < turns.length; index++) {
      const outcome = await session.turn(index)
      const identity = {
        caseId: qaCase.id,
        turn: turnNumber(qaCase, index),
        suite: input.suite,
        dataset: input.suite,
        category: qaCase.category,
        agent: agent.name,
        agentKind: agent.kind ?? 'custom',
        model: agent.model ?? null,
        provider: agent.provider ?? null,
        trial: input.trial,
        seed: input.seed,
        generation: input.generation ?? null,
        datasetSha256: { dirty: digest, clean: digest },
        agentProvenance: agent.provenance ?? null,
      }
      if ('error' in outcome) {
        const failure = classifyFailure(outcome.error)
        const counters = (outcome.error as { metrics?: unknown } | null)?.metrics
        const metrics = isCounters(counters) ? { metrics: counters } : {}
        records.push(buildRunRecord(identity, { status: 'failed', ...failure, ...metrics, runtimeS: outcome.runtimeS }, input.provenance))
        continue
      }
      const { answer } = outcome
      const verdict = await gradeSafely(turns[index]!.grader, answer)
      records.push(
        buildRunRecord(
          { ...identity, model: identity.model ?? answer.model ?? null },
          {
            status: 'ok',
            correct: verdict.passed,
            validationError: verdict.passed ? null : verdict.detail,
            metrics: { ...answer.metrics, ...(verdict.score === undefined ? {} : { score: verdict.score }) },
            steps: answer.steps ?? 1,
            runtimeS: outcome.runtimeS,
            usage: addUsage(emptyUsage(), answer.usage ?? {}),
          },
          input.provenance,
        ),
      )
    }
  } finally {
    await session.close()
  }
  return records
}

function isCounters(x: unknown): x is Record<string, number> {
  return typeof x === 'object' && x !== null && Object.values(x).every((v) => typeof v === 'number' && Number.isFinite(v))
}

/** A grader that throws is a harness bug, reported as the verdict's detail rather than crashing the run. */
async function gradeSafely(grader: (a: Answer) => GradeResult | Promise<GradeResult>, answer: Answer): Promise<GradeResult> {
  try {
    return await grader(answer)
  } catch (error) {
    return { passed: false, detail: `grader threw: ${error instanceof Error ? error.message : String(error)}` }
  }
}
