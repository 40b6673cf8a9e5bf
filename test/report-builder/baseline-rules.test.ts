import { describe, expect, it } from 'vitest'
import { createBaselineAgent } from '../../src/adapters/baseline/index.js'
import { Random } from '../../src/core/random.js'
import type { AgentRunResult, AgentTask, Fix } from '../../src/core/schemas.js'

/** A task as an agent sees it; the baseline needs no ground truth, so none is filed. */
function taskOf(columns: string[], rows: string[][], idColumns = ['id']): AgentTask {
  return { name: 'rules', dirty: { columns, rows }, columns, metadata: { idColumns }, seed: 0 }
}

async function repair(task: AgentTask, phases?: Parameters<typeof createBaselineAgent>[0]): Promise<Fix[]> {
  const agent = createBaselineAgent(phases)
  const out = (await agent.run(task, { seed: 0, trial: 0, signal: new AbortController().signal })) as AgentRunResult
  return out.fixes as Fix[]
}

const cellsOf = (fixes: Fix[]) => fixes.map((f) => [f.row, f.column, f.newValue])

/** A table of people living in a few cities: zip → city and city → state hold exactly. */
function addressTable(n: number, seed = 7): string[][] {
  const places = [
    ['10001', 'New York', 'NY'],
    ['02108', 'Boston', 'MA'],
    ['60601', 'Chicago', 'IL'],
    ['94103', 'San Francisco', 'CA'],
    ['98101', 'Seattle', 'WA'],
  ]
  const rng = new Random(seed)
  return Array.from({ length: n }, (_, i) => {
    const [zip, city, state] = rng.pick(places)
    return [String(i + 1), `person ${i}`, zip!, city!, state!]
  })
}
const ADDRESS = ['id', 'name', 'zip', 'city', 'state']

describe('baseline rules, one at a time', () => {
  it('dependencies: a misspelt city and a missing one take the value their zip group agrees on', async () => {
    const rows = addressTable(200)
    const boston = rows.findIndex((r) => r[3] === 'Boston')
    const chicago = rows.findIndex((r) => r[3] === 'Chicago')
    rows[boston]![3] = 'Bostn'
    rows[chicago]![3] = ''
    const fixes = await repair(taskOf(ADDRESS, rows), { phases: ['dependencies'] })
    expect(cellsOf(fixes)).toEqual(
      [
        [boston, 'city', 'Boston'],
        [chicago, 'city', 'Chicago'],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    )
    expect(fixes[0]!.reason).toMatch(/^majority of rows sharing /)
  })

  it('dependencies: a wrong zip does not move a city its state backs', async () => {
    const rows = addressTable(200)
    const row = rows.findIndex((r) => r[3] === 'Seattle')
    rows[row]![2] = '10001' // a New York zip in a Seattle, WA row
    const fixes = await repair(taskOf(ADDRESS, rows), { phases: ['dependencies'] })
    expect(fixes.filter((f) => f.row === row && f.column !== 'zip')).toEqual([])
  })

  it('dependencies: a table without errors gets no fixes; id columns are never touched', async () => {
    const rows = addressTable(300)
    expect(await repair(taskOf(ADDRESS, rows))).toEqual([])
    rows[5]![0] = rows[6]![0]! // a duplicate id is not the agent's business
    expect(await repair(taskOf(ADDRESS, rows))).toEqual([])
  })

  it('typos: a rare spelling near a frequent value takes it; truncations expand; numbers and short codes stay', async () => {
    const plans = Array.from({ length: 120 }, (_, i) => [
      String(i),
      i % 3 === 0 ? 'Standard' : 'Premium',
      i % 2 ? 'AB' : 'AC',
      String(10 + (i % 7)),
    ])
    plans[4]![1] = 'Standrad'
    plans[8]![1] = 'Prem.'
    plans[9]![2] = 'AD' // short: could be a real code
    plans[10]![3] = '99' // a number is data
    const fixes = await repair(taskOf(['id', 'plan', 'code', 'n'], plans), { phases: ['typos'] })
    expect(cellsOf(fixes)).toEqual([
      [4, 'plan', 'Standard'],
      [8, 'plan', 'Premium'],
    ])
  })

  it('typos: an ambiguous value between two frequent ones is left alone', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => [String(i), i % 2 ? 'Kline' : 'Klime'])
    rows.push(['100', 'Klibe'])
    expect(await repair(taskOf(['id', 'name'], rows), { phases: ['typos'] })).toEqual([])
  })

  it('unitNumbers: inconsistently spelled units go; a consistent unit stays', async () => {
    const units = ['oz', 'oz.', 'ounce', 'OZ.']
    const rows = Array.from({ length: 40 }, (_, i) => [
      String(i),
      `${i % 5 ? '12.0' : '19.2'} ${units[i % 4]}`,
      `${i} patients`,
    ])
    const fixes = await repair(taskOf(['id', 'ounces', 'sample'], rows), { phases: ['unitNumbers'] })
    expect(fixes).toHaveLength(40)
    expect(fixes.every((f) => f.column === 'ounces')).toBe(true)
    expect(fixes[0]!.newValue).toBe('19.2')
    expect(fixes[1]!.newValue).toBe('12')
  })

  it('decorations and floatNoise: 0.05% and 0.052000000000000005 in a column of plain decimals', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [String(i), `0.0${(i % 9) + 1}`])
    rows[3]![1] = '0.05%'
    rows[4]![1] = '0.052000000000000005'
    rows[5]![1] = '0.057999999999999996%'
    rows[6]![1] = '3.141592653589793' // a long but real decimal
    const fixes = await repair(taskOf(['id', 'abv'], rows), { phases: ['decorations', 'floatNoise'] })
    expect(cellsOf(fixes)).toEqual([
      [3, 'abv', '0.05'],
      [4, 'abv', '0.052'],
      [5, 'abv', '0.058'],
    ])
  })

  it('nullPlaceholders: a systematic N/A in a numeric column empties; a stray one in a few rows does not', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => [
      String(i),
      i % 4 === 0 ? 'N/A' : String(i),
      i === 7 ? 'NULL' : String(i * 2),
    ])
    const fixes = await repair(taskOf(['id', 'ibu', 'score'], rows), { phases: ['nullPlaceholders'] })
    expect(fixes).toHaveLength(25)
    expect(fixes.every((f) => f.column === 'ibu' && f.newValue === '')).toBe(true)
  })

  it('dates: minority layouts are rewritten in the dominant one; two-digit years are left alone', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [String(i), `2021-03-${String((i % 28) + 1).padStart(2, '0')}`])
    rows[1]![1] = '03/14/2021'
    rows[2]![1] = '14.03.2021'
    rows[3]![1] = 'Mar 5, 2021'
    rows[4]![1] = '20210306'
    rows[5]![1] = '3/14/21'
    rows[6]![1] = '02/30/2021' // not a date
    const fixes = await repair(taskOf(['id', 'signup'], rows), { phases: ['dates'] })
    expect(cellsOf(fixes)).toEqual([
      [1, 'signup', '2021-03-14'],
      [2, 'signup', '2021-03-14'],
      [3, 'signup', '2021-03-05'],
      [4, 'signup', '2021-03-06'],
    ])
  })

  it('phones: ten-digit numbers in another layout take the dominant one', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [String(i), `612-477-${String(7000 + i)}`])
    rows[1]![1] = '(612) 477-7001'
    rows[2]![1] = '+1 612 477 7002'
    rows[3]![1] = '6124777003'
    rows[4]![1] = '612-477-700' // nine digits: not a phone number we can rewrite
    const fixes = await repair(taskOf(['id', 'phone'], rows), { phases: ['phones'] })
    expect(cellsOf(fixes)).toEqual([
      [1, 'phone', '612-477-7001'],
      [2, 'phone', '612-477-7002'],
      [3, 'phone', '612-477-7003'],
    ])
  })

  it('numbers: decimal commas, surplus zeros, float suffixes and lost leading zeros', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => [
      String(i),
      `${i}.99`,
      `${i % 9}.5`,
      i % 2 ? '02108' : '60601',
      String(1000 + i),
    ])
    rows[1]![1] = '9,99'
    rows[2]![1] = '1,000' // three digits after a comma read as thousands: left alone
    rows[3]![2] = '65.30'
    rows[4]![3] = '2108'
    rows[5]![4] = '1005.0'
    const fixes = await repair(taskOf(['id', 'fee', 'score', 'zip', 'count'], rows), { phases: ['numbers'] })
    expect(cellsOf(fixes)).toEqual([
      [1, 'fee', '9.99'],
      [3, 'score', '65.3'],
      [4, 'zip', '02108'],
      [5, 'count', '1005'],
    ])
  })

  it('spelling: a rare case or spacing variant takes the usual spelling; a common variant is a convention', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => [
      String(i),
      i % 2 ? 'Basic' : 'New York',
      i < 30 ? 'ENG' : 'eng',
    ])
    rows[3]![1] = ' basic'
    rows[4]![1] = 'NEW  YORK'
    const fixes = await repair(taskOf(['id', 'plan', 'lang'], rows), { phases: ['spelling'] })
    expect(cellsOf(fixes)).toEqual([
      [3, 'plan', 'Basic'],
      [4, 'plan', 'New York'],
    ])
  })
})
