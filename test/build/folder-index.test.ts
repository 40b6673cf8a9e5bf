import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/dataset-paths.js'

const src = resolve(repoRoot, 'src')
const folders = readdirSync(src, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)

describe('the folders of src/', () => {
  it('each have an index.ts, their surface, that starts with a one-line statement of the folder’s job', () => {
    expect(folders.length).toBeGreaterThanOrEqual(18)
    const wrong: string[] = []
    for (const folder of folders) {
      const index = join(src, folder, 'index.ts')
      if (!existsSync(index)) {
        wrong.push(`src/${folder}/ has no index.ts`)
        continue
      }
      const first = readFileSync(index, 'utf8').split('\n')[0]!
      if (!/^\/\*\* [A-Z`].{20,}[.)] \*\/$/.test(first))
        wrong.push(`src/${folder}/index.ts starts with ${JSON.stringify(first)}, not /** its job. */`)
    }
    expect(wrong).toEqual([])
  })
})
