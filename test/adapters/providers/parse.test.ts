import { describe, expect, it } from 'vitest'
import { buildRepairPrompt, estimateTokens, parseRepairResponse } from '../../../src/adapters/providers/index.js'
import { AgentFailure, InputError } from '../../../src/core/errors.js'
import { createTask, type GroundTruth } from '../../../src/core/ground-truth.js'
import { makeTask, numberedTask } from '../../helpers/providers.js'

function failureOf(fn: () => unknown): AgentFailure {
  try {
    fn()
  } catch (error) {
    if (error instanceof AgentFailure) return error
    throw error
  }
  throw new Error('expected an AgentFailure')
}

describe('parseRepairResponse', () => {
  it('accepts a bare JSON array of fixes', () => {
    const out = parseRepairResponse('[{"row": 2, "column": "city", "new_value": "Boston"}]')
    expect(out).toEqual({ fixes: [{ row: 2, column: 'city', newValue: 'Boston' }], warnings: [] })
  })

  it('accepts an object holding fixes or repairs, with new_value or newValue', () => {
    expect(
      parseRepairResponse('{"fixes": [{"row": 0, "column": "a", "newValue": "x", "reason": "typo"}]}').fixes,
    ).toEqual([{ row: 0, column: 'a', newValue: 'x', reason: 'typo' }])
    expect(parseRepairResponse('{"repairs": [{"row": 1, "column": "b", "new_value": "y"}]}').fixes).toEqual([
      { row: 1, column: 'b', newValue: 'y' },
    ])
  })

  it('strips code fences and surrounding prose', () => {
    const fenced = 'Here you go:\n```json\n{"fixes": [{"row": 3, "column": "zip", "new_value": "02139"}]}\n```\nDone.'
    expect(parseRepairResponse(fenced).fixes).toEqual([{ row: 3, column: 'zip', newValue: '02139' }])
    const prose =
      'The corrected cells [as asked] are {"fixes": [{"row": 1, "column": "a", "new_value": "b"}]} — hope it helps'
    expect(parseRepairResponse(prose).fixes).toEqual([{ row: 1, column: 'a', newValue: 'b' }])
  })

  it('detects truncated JSON, fenced or bare, as a parse failure', () => {
    const bare = failureOf(() =>
      parseRepairResponse('{"fixes": [{"row": 1, "column": "a", "new_value": "b"}, {"row": 2, "col', {
        finishReason: 'length',
      }),
    )
    expect(bare.kind).toBe('parse_failure')
    expect(bare.message).toMatch(/truncated JSON/)
    expect(bare.message).toMatch(/finish_reason length/)
    const fenced = failureOf(() => parseRepairResponse('```json\n[{"row": 1, "column": "a", "new_value": "b"}, {"row"'))
    expect(fenced.kind).toBe('parse_failure')
    expect(fenced.message).toMatch(/truncated/)
  })

  it('skips malformed items with a warning and keeps the rest', () => {
    const out = parseRepairResponse(
      JSON.stringify([
        { row: 0, column: 'a', new_value: 'ok' },
        { row: -1, column: 'a', new_value: 'x' },
        { row: 1, new_value: 'x' },
        { row: 2, column: 'a', new_value: null },
        'not an object',
        { row: '4', column: 'a', new_value: 12 },
      ]),
    )
    expect(out.fixes).toEqual([
      { row: 0, column: 'a', newValue: 'ok' },
      { row: 4, column: 'a', newValue: '12' },
    ])
    expect(out.warnings).toHaveLength(4)
    expect(out.warnings[0]).toMatch(/skipped fix #1: row -1/)
    expect(out.warnings[1]).toMatch(/skipped fix #2: column/)
    expect(out.warnings[2]).toMatch(/skipped fix #3: .*new_value/)
    expect(out.warnings[3]).toMatch(/skipped fix #4: expected an object/)
  })

  it('classifies refusals', () => {
    expect(failureOf(() => parseRepairResponse("I'm sorry, but I can't help with modifying this data.")).kind).toBe(
      'refusal',
    )
    expect(failureOf(() => parseRepairResponse(null, { refusal: 'I will not do that' })).kind).toBe('refusal')
    expect(failureOf(() => parseRepairResponse('', { finishReason: 'content_filter' })).kind).toBe('refusal')
  })

  it('classifies unparseable output as a parse failure', () => {
    expect(failureOf(() => parseRepairResponse('')).kind).toBe('parse_failure')
    expect(failureOf(() => parseRepairResponse('The table looks fine to me.')).message).toMatch(/no JSON/)
    expect(failureOf(() => parseRepairResponse('{"fixes": [1, 2,, 3]}')).message).toMatch(/invalid JSON/)
    expect(failureOf(() => parseRepairResponse('{"answer": 42}')).message).toMatch(/no list of fixes/)
  })

  it('returns no fixes for an empty list', () => {
    expect(parseRepairResponse('{"fixes": []}')).toEqual({ fixes: [], warnings: [] })
  })
})

describe('buildRepairPrompt', () => {
  it('sends the dirty table as JSON records with row numbers and the allowed columns', () => {
    const task = makeTask(
      ['name', 'city'],
      [
        ['Ann', 'Bostn'],
        ['Bob', 'N/A'],
      ],
      'people',
    )
    const { chunks, warnings } = buildRepairPrompt(task)
    expect(warnings).toEqual([])
    expect(chunks).toHaveLength(1)
    const [system, user] = chunks[0]!.messages
    expect(system!.role).toBe('system')
    expect(user!.content).toContain('Allowed columns: ["name","city"]')
    expect(user!.content).toContain('{"row":0,"name":"Ann","city":"Bostn"}')
    expect(user!.content).toContain('{"row":1,"name":"Bob","city":"N/A"}')
    expect(user!.content).toContain('"new_value"')
    expect(chunks[0]).toMatchObject({ startRow: 0, endRow: 2 })
  })

  it('names id columns as never to be changed, when the task has them', () => {
    const task = createTask(
      {
        name: 't',
        dirty: { columns: ['index', 'city'], rows: [['1', 'x']] },
        metadata: { idColumns: ['index'] },
        seed: 1,
      },
      { corrections: [], dataset: {} as GroundTruth['dataset'] },
    )
    expect(buildRepairPrompt(task).chunks[0]!.messages[1]!.content).toContain('Id columns ["index"] hold no errors')
    expect(buildRepairPrompt(makeTask(['a'], [['1']])).chunks[0]!.messages[1]!.content).not.toContain('Id columns')
  })

  it('uses another key for the row number when a column is named "row"', () => {
    const task = makeTask(['row', 'value'], [['r1', 'v']])
    const user = buildRepairPrompt(task).chunks[0]!.messages[1]!.content as string
    expect(user).toContain('{"_row":0,"row":"r1","value":"v"}')
    expect(user).toContain('row number from "_row"')
  })

  it('splits large tables into contiguous row chunks under the token budget', () => {
    const task = numberedTask(300)
    const budget = 1_500
    const { chunks } = buildRepairPrompt(task, { chunkTokenBudget: budget })
    expect(chunks.length).toBeGreaterThan(2)
    let next = 0
    for (const chunk of chunks) {
      expect(chunk.startRow).toBe(next)
      expect(chunk.endRow).toBeGreaterThan(chunk.startRow)
      expect(chunk.estimatedTokens).toBeLessThanOrEqual(budget)
      const user = chunk.messages[1]!.content as string
      expect(estimateTokens(user)).toBeLessThanOrEqual(budget)
      expect(user).toContain(`{"row":${chunk.startRow},`)
      expect(user).toContain(`{"row":${chunk.endRow - 1},`)
      expect(user).not.toContain(`{"row":${chunk.endRow},`)
      next = chunk.endRow
    }
    expect(next).toBe(300)
  })

  it('sends an oversized row alone, with a warning', () => {
    const task = makeTask(['text'], [['short'], ['x'.repeat(6_000)], ['short']])
    const { chunks, warnings } = buildRepairPrompt(task, { chunkTokenBudget: 1_000 })
    expect(chunks.map((c) => [c.startRow, c.endRow])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ])
    expect(warnings[0]).toMatch(/row 1 alone/)
  })

  it('rejects a budget smaller than the fixed prompt', () => {
    expect(() => buildRepairPrompt(numberedTask(3), { chunkTokenBudget: 20 })).toThrow(InputError)
    expect(() => buildRepairPrompt(numberedTask(3), { chunkTokenBudget: 20 })).toThrow(/chunkTokenBudget/)
  })

  it('makes no chunk for an empty table', () => {
    expect(buildRepairPrompt(makeTask(['a'], [])).chunks).toEqual([])
  })
})
