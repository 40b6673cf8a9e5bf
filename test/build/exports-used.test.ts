import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { unusedExports } from '../helpers/export-graph.js'
import { repoRoot } from '../helpers/dataset-paths.js'

describe('the exports of src/', () => {
  it('are each used: imported by another file of src/ or by a test, or exported by a public entry', () => {
    expect(unusedExports(resolve(repoRoot, 'src'), [resolve(repoRoot, 'test')])).toEqual([])
  })
})
