import { sha256Hex } from './hash.js'
import {
  type AgentToolStep,
  type RecordToolCall,
  type Transcript,
  TRANSCRIPT_VERSION,
  type TranscriptCall,
} from './transcript.js'
import { MAX_VALUE_CHARS, VALUE_CUT_MARK } from './value-cap.js'

/*
 * A trial's transcript and its tool calls, built from what the gateway served (its calls, uncut) and the steps the
 * agent ran itself. The size policy of value-cap.ts applies: any one string keeps at most MAX_VALUE_CHARS
 * characters, each cut noted in `notes` with its full length and sha256; a trial keeps at most
 * MAX_TRANSCRIPT_CALLS calls, the rest noted.
 */

/** Calls one transcript keeps; a trial that made more keeps its first ones and says how many it left out. */
const MAX_TRANSCRIPT_CALLS = 1_000

/**
 * Characters of request messages one transcript keeps in full. Each request resends the conversation so far, so a
 * long tool loop grows with the square of its calls: past this, a call keeps only its request's last message.
 */
export const MAX_TRANSCRIPT_MESSAGE_CHARS = 4_000_000

/** A step the agent ran, with the model's tool call it answered (when it did) and the model calls made before it. */
export interface AgentToolNote {
  step: Omit<AgentToolStep, 'index'>
  /** The id of the model's tool call this step ran, when a model asked for it. */
  callId: string | null
  /** How many of the trial's model calls were made before this step (where it sits in the trial's order). */
  atCall: number
}

/** Cuts strings to MAX_VALUE_CHARS, noting each cut as value-cap.ts does. */
class TranscriptCuts {
  readonly notes: string[] = []
  text(value: string, field: string): string {
    if (value.length <= MAX_VALUE_CHARS) return value
    this.notes.push(
      `${VALUE_CUT_MARK}${field} has ${value.length} characters (sha256 ${sha256Hex(value)}); the transcript keeps the first ${MAX_VALUE_CHARS}`,
    )
    return value.slice(0, MAX_VALUE_CHARS)
  }
  nullable(value: string | null, field: string): string | null {
    return value === null ? null : this.text(value, field)
  }
}

const capArguments = (text: string): string => (text.length <= MAX_VALUE_CHARS ? text : text.slice(0, MAX_VALUE_CHARS))

/**
 * Each tool call of a trial in order: the model's (from its answers), with the size of their results where a
 * later request sent them back (`resultChars`), and the agent's own steps. A step that ran a model's tool call
 * (same call id) takes that call's place as source `agent`, so a call is listed once.
 */
export function toolCallsOf(calls: readonly TranscriptCall[], agentTools: readonly AgentToolNote[]): RecordToolCall[] {
  const out: RecordToolCall[] = []
  const byId = new Map<string, number>()
  const ran = new Map<string, AgentToolNote>()
  for (const note of agentTools) if (note.callId !== null) ran.set(note.callId, note)
  const own = agentTools.filter(
    (n) => n.callId === null || !calls.some((c) => c.response?.toolCalls.some((t) => t.id === n.callId)),
  )
  let next = 0
  const agentEntry = (n: AgentToolNote): RecordToolCall => ({
    name: n.step.name,
    arguments: capArguments(n.step.input),
    resultChars: n.step.resultChars,
    source: 'agent',
    call: null,
  })
  for (const call of calls) {
    while (next < own.length && own[next]!.atCall <= call.index) out.push(agentEntry(own[next++]!))
    for (const message of call.request.messages) {
      if (message.toolCallId === null) continue
      const at = byId.get(message.toolCallId)
      if (at !== undefined && out[at]!.resultChars === null) out[at]!.resultChars = message.content.length
    }
    for (const tool of call.response?.toolCalls ?? []) {
      const step = tool.id !== null ? ran.get(tool.id) : undefined
      if (step) {
        out.push(agentEntry(step))
        continue
      }
      if (tool.id !== null) byId.set(tool.id, out.length)
      out.push({
        name: tool.name,
        arguments: capArguments(tool.arguments),
        resultChars: null,
        source: 'model',
        call: call.index,
      })
    }
  }
  while (next < own.length) out.push(agentEntry(own[next++]!))
  return out
}

/** A transcript's calls and steps with every long string cut, the cuts noted. */
function cutTranscript(
  calls: readonly TranscriptCall[],
  agentTools: readonly AgentToolNote[],
): Pick<Transcript, 'calls' | 'agentTools' | 'notes'> {
  const cuts = new TranscriptCuts()
  const kept = calls.slice(0, MAX_TRANSCRIPT_CALLS)
  const toolCall = (t: { id: string | null; name: string; arguments: string }, at: string) => ({
    id: t.id,
    name: cuts.text(t.name, `${at}.name`),
    arguments: cuts.text(t.arguments, `${at}.arguments`),
  })
  let messageChars = 0
  let trimmedFrom: number | null = null
  const cutCalls = kept.map((c, i) => {
    const at = `calls[${i}]`
    let messages = c.request.messages
    if (trimmedFrom === null) {
      for (const m of messages) messageChars += m.content.length
      if (messageChars > MAX_TRANSCRIPT_MESSAGE_CHARS) trimmedFrom = i
    }
    if (trimmedFrom !== null && messages.length > 1) messages = messages.slice(-1)
    return {
      ...c,
      error: cuts.nullable(c.error, `${at}.error`),
      request: {
        system: cuts.nullable(c.request.system, `${at}.request.system`),
        messages: messages.map((m, j) => ({
          role: m.role,
          content: cuts.text(m.content, `${at}.request.messages[${j}].content`),
          toolCalls: m.toolCalls.map((t, k) => toolCall(t, `${at}.request.messages[${j}].toolCalls[${k}]`)),
          toolCallId: m.toolCallId,
        })),
        tools: c.request.tools.map((t, j) => ({
          name: t.name,
          description: cuts.nullable(t.description, `${at}.request.tools[${j}].description`),
          parameters: cuts.nullable(t.parameters, `${at}.request.tools[${j}].parameters`),
        })),
      },
      response: c.response && {
        text: cuts.nullable(c.response.text, `${at}.response.text`),
        toolCalls: c.response.toolCalls.map((t, k) => toolCall(t, `${at}.response.toolCalls[${k}]`)),
        finishReason: c.response.finishReason,
      },
    }
  })
  const steps = agentTools.map((n, i) => {
    const at = `agentTools[${i}]`
    return {
      index: i,
      name: n.step.name,
      input: cuts.text(n.step.input, `${at}.input`),
      resultPreview: cuts.text(n.step.resultPreview, `${at}.resultPreview`),
      resultChars: n.step.resultChars,
      error: cuts.nullable(n.step.error, `${at}.error`),
      ms: n.step.ms,
    }
  })
  const notes = [...cuts.notes]
  if (trimmedFrom !== null) {
    notes.push(
      `calls[${trimmedFrom}] on keep only their request's last message: the requests' messages passed ${MAX_TRANSCRIPT_MESSAGE_CHARS} characters`,
    )
  }
  if (calls.length > kept.length)
    notes.push(
      `${calls.length - kept.length} of ${calls.length} model calls left out: a transcript keeps the first ${MAX_TRANSCRIPT_CALLS}`,
    )
  return { calls: cutCalls, agentTools: steps, notes }
}

/**
 * A trial's transcript (its model calls re-indexed from 0, as in the record's `llmCalls`), or null when the trial
 * made no model call and ran no tool. `identity` names the run (its case, trial, seed and turn): the id is the
 * sha256 of it and the transcript's content, so two runs share an id only when they kept the same transcript.
 */
export function buildTranscript(
  identity: string,
  calls: readonly TranscriptCall[],
  agentTools: readonly AgentToolNote[],
): { transcript: Transcript | null; toolCalls: RecordToolCall[] } {
  if (calls.length === 0 && agentTools.length === 0) return { transcript: null, toolCalls: [] }
  const indexed = calls.map((c, i) => (c.index === i ? c : { ...c, index: i }))
  const toolCalls = toolCallsOf(indexed, agentTools)
  const body = cutTranscript(indexed, agentTools)
  const id = sha256Hex(JSON.stringify([identity, body])).slice(0, 32)
  return { transcript: { transcriptVersion: TRANSCRIPT_VERSION, id, ...body }, toolCalls }
}
