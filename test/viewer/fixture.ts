import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buildRunRecord, type RecordOutcome } from '../../src/core/build-run-record.js'
import type { TrialIdentityInput as RecordIdentity } from '../../src/core/trial-identity.js'
import { groundTruthOf } from '../../src/core/ground-truth.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { type Transcript, TRANSCRIPT_VERSION, type TranscriptCall } from '../../src/core/transcript.js'
import { emptyUsage } from '../../src/core/usage.js'
import { loadDataset } from '../../src/datasets/load.js'
import { gradeRepair } from '../../src/grading/repair/grade.js'

/** Strings an agent or a model could send to break a page: markup, Markdown, terminal escapes. */
export const HOSTILE_HTML = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
export const HOSTILE_MARKDOWN = '**bold** [link](javascript:alert(1)) # heading'
export const HOSTILE_ANSI = '\u001b[31mred\u001b[0m\u001b]0;title\u0007'
/** A category that tries to close the index's JSON block and run a script of its own. */
export const HOSTILE_CATEGORY = '</script><script>window.__pwned=3</script><!--'
/** A key that must appear in no page: the fixtures never store it, the test looks for it. */
export const FAKE_KEY = 'sk-test-viewer-key-0123456789'

const PROVENANCE = { projectCommit: null, runDateUtc: '2026-12-03T10:00:00.000Z' }

function call(index: number, over: Partial<TranscriptCall> = {}): TranscriptCall {
  return {
    index,
    protocol: 'openai-chat',
    path: '/v1/chat/completions',
    model: 'model-small',
    stream: false,
    request: {
      system: 'You repair tables.',
      messages: [{ role: 'user', content: `question ${index}`, toolCalls: [], toolCallId: null }],
      tools: [],
    },
    response: { text: `answer ${index}`, toolCalls: [], finishReason: 'stop' },
    promptTokens: 100,
    completionTokens: 20,
    latencyMs: 12,
    cache: 'live',
    status: 200,
    error: null,
    ...over,
  }
}

/** A transcript of `n` model calls, each asking for a SQL tool call and seeing its result in the next request. */
export function longTranscript(id: string, n: number): Transcript {
  const calls: TranscriptCall[] = []
  const messages: TranscriptCall['request']['messages'] = [
    { role: 'user', content: 'How many rows?', toolCalls: [], toolCallId: null },
  ]
  for (let i = 0; i < n; i++) {
    const tool = {
      id: `call_${i}`,
      name: 'sql',
      arguments: JSON.stringify({ query: `SELECT count(*) FROM t WHERE id > ${i}` }),
    }
    calls.push(
      call(i, {
        stream: i % 2 === 1,
        request: {
          system: 'You answer questions with SQL.',
          messages: [...messages],
          tools: [{ name: 'sql', description: 'Run DuckDB SQL', parameters: '{"type":"object"}' }],
        },
        response:
          i === n - 1
            ? { text: 'There are 42 rows.', toolCalls: [], finishReason: 'stop' }
            : { text: null, toolCalls: [tool], finishReason: 'tool_calls' },
      }),
    )
    messages.push(
      { role: 'assistant', content: '', toolCalls: [tool], toolCallId: null },
      { role: 'tool', content: `${1000 - i}`, toolCalls: [], toolCallId: tool.id },
    )
  }
  return { transcriptVersion: TRANSCRIPT_VERSION, id, calls, agentTools: [], notes: [] }
}

export interface FixtureOptions {
  /** The repair agent's quality: how many of the true errors it fixes right (the rest: one wrong value, missed). */
  rightFixes?: number
  /** The question run's answer. */
  answer?: string
  questionCorrect?: boolean
  agent?: string
}

/**
 * A report folder made by hand with real parts: a repair run graded by the real grader on seeded synthetic data
 * (so `--show-expected` can find its dataset), a question run, a conformance run, a failed run and a run whose
 * transcript is missing; hostile strings in values, answers and messages.
 */
export async function writeFixtureReport(
  dir: string,
  options: FixtureOptions = {},
  stem = 'report',
): Promise<RunRecord[]> {
  const agent = options.agent ?? 'fixer'
  const seed = 7
  const { task, info } = await loadDataset({ id: 'synthetic', seed })
  const corrections = groundTruthOf(task).corrections
  const right = corrections
    .slice(0, options.rightFixes ?? 3)
    .map((c) => ({ row: c.row, column: c.column, newValue: c.clean }))
  const wrong = corrections
    .slice(right.length, right.length + 1)
    .map((c) => ({ row: c.row, column: c.column, newValue: HOSTILE_HTML }))
  const untouched = task.dirty.rows.findIndex(
    (_, r) => !corrections.some((c) => c.row === r && c.column === task.columns[1]),
  )
  const over = { row: untouched, column: task.columns[1]!, newValue: `${HOSTILE_MARKDOWN} ${HOSTILE_ANSI}` }
  const score = gradeRepair(task, {
    fixes: [...right, ...wrong, over, { row: 99999, column: task.columns[0]!, newValue: 'nowhere' }],
  })
  const repairId: RecordIdentity = {
    caseId: 'synthetic',
    dataset: 'synthetic',
    agent,
    agentKind: 'custom',
    model: 'model-small',
    trial: 0,
    seed,
    datasetSha256: { dirty: info.dirty.sha256, clean: info.clean.sha256 },
  }
  const usage = { ...emptyUsage(), calls: 2, promptTokens: 200, completionTokens: 40, costUsd: 0.0012 }
  const records: RunRecord[] = [
    buildRunRecord(
      repairId,
      {
        status: 'ok',
        score,
        usage,
        usageSource: 'gateway',
        transcriptId: 't-repair',
        toolCalls: [{ name: 'sql', arguments: 'SELECT * FROM t', resultChars: 120, source: 'agent', call: null }],
      },
      PROVENANCE,
    ),
    question(agent, options, 't-question'),
    buildRunRecord(
      {
        caseId: 'people',
        suite: 'conformance',
        dataset: 'people',
        category: HOSTILE_CATEGORY,
        agent,
        model: 'model-small',
        trial: 0,
        seed: 1,
      },
      { status: 'ok', correct: true, metrics: { conformanceScore: 0.91, 'conformance.age.pValue': 0.42 } },
      PROVENANCE,
    ),
    buildRunRecord(
      { ...repairId, trial: 1, seed: 8 },
      {
        status: 'failed',
        failureKind: 'timeout',
        failureMessage: `timed out after 5 s ${HOSTILE_HTML}`,
        usage,
        transcriptId: 't-gone',
      } as RecordOutcome,
      PROVENANCE,
    ),
  ]
  const transcripts: Transcript[] = [
    {
      transcriptVersion: TRANSCRIPT_VERSION,
      id: 't-repair',
      calls: [
        call(0, {
          request: {
            system: 'You repair tables.',
            messages: [{ role: 'user', content: `Fix this table. ${HOSTILE_HTML}`, toolCalls: [], toolCallId: null }],
            tools: [{ name: 'sql', description: 'Run SQL', parameters: '{"type":"object"}' }],
          },
          response: {
            text: null,
            toolCalls: [{ id: 'c1', name: 'sql', arguments: '{"query":"SELECT city FROM t"}' }],
            finishReason: 'tool_calls',
          },
        }),
        call(1, {
          stream: true,
          cache: 'hit',
          response: {
            text: `Streamed repair answer ${HOSTILE_MARKDOWN} ${HOSTILE_ANSI}`,
            toolCalls: [],
            finishReason: 'stop',
          },
        }),
      ],
      agentTools: [
        {
          index: 0,
          name: 'sql',
          input: 'SELECT * FROM t',
          resultPreview: 'name,city\nAda,Bostn',
          resultChars: 120,
          error: null,
          ms: 3,
        },
      ],
      notes: ['call 1: a message of 90,000 characters was cut to 20,000'],
    },
    {
      transcriptVersion: TRANSCRIPT_VERSION,
      id: 't-question',
      calls: [
        call(0, {
          request: {
            system: null,
            messages: [{ role: 'user', content: 'What is the total?', toolCalls: [], toolCallId: null }],
            tools: [],
          },
          response: { text: options.answer ?? 'The total is 41.', toolCalls: [], finishReason: 'stop' },
        }),
      ],
      agentTools: [],
      notes: [],
    },
  ]
  await writeReportFiles(dir, stem, records, transcripts)
  return records
}

function question(agent: string, options: FixtureOptions, transcriptId: string): RunRecord {
  const correct = options.questionCorrect ?? false
  return buildRunRecord(
    {
      caseId: 'total-sales',
      suite: 'shop-questions',
      dataset: 'shop',
      agent,
      model: 'model-small',
      trial: 0,
      seed: 1,
      datasetSha256: { dirty: 'c'.repeat(64), clean: 'c'.repeat(64) },
    },
    {
      status: 'ok',
      correct,
      validationError: correct ? null : 'expected 42, found 41',
      usage: { ...emptyUsage(), calls: 1, promptTokens: 50, completionTokens: 10 },
      transcriptId,
    },
    PROVENANCE,
  )
}

export async function writeReportFiles(
  dir: string,
  stem: string,
  records: readonly RunRecord[],
  transcripts: readonly Transcript[],
): Promise<void> {
  await mkdir(dir, { recursive: true })
  const legacy = stem === 'report'
  await writeFile(
    join(dir, legacy ? 'runs.jsonl' : `${stem}.runs.jsonl`),
    records.map((r) => JSON.stringify(r)).join('\n') + '\n',
  )
  await writeFile(
    join(dir, legacy ? 'transcripts.jsonl' : `${stem}.transcripts.jsonl`),
    transcripts.map((t) => JSON.stringify(t)).join('\n') + '\n',
  )
}
