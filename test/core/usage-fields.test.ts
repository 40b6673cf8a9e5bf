import { describe, expect, it } from 'vitest'
import { UsageSchema } from '../../src/core/schemas.js'
import { emptyUsage, USAGE_FIELDS } from '../../src/core/usage.js'

describe('USAGE_FIELDS', () => {
  it('names every field of the Usage schema, in its order, and no other', () => {
    expect([...USAGE_FIELDS]).toEqual(Object.keys(UsageSchema.shape))
    expect(Object.keys(emptyUsage())).toEqual([...USAGE_FIELDS])
  })
})
