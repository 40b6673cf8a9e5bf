import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectCommit, projectCommitAsync } from '../../src/report-builder/reproducibility.js'

// The reproducibility block's project commit, from one `git status` in a real repository.
const root = mkdtempSync(join(tmpdir(), 'dataforge-commit-'))
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe' },
  )
    .toString()
    .trim()

async function both(cwd: string) {
  const sync = projectCommit(cwd)
  expect(await projectCommitAsync(cwd)).toEqual(sync)
  return sync
}

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('project commit', () => {
  it('is null outside a repository and in one without a commit', async () => {
    const outside = mkdtempSync(join(root, 'plain-'))
    expect(await both(outside)).toEqual({ commit: null, dirty: null })
    const fresh = join(root, 'fresh')
    execFileSync('git', ['init', '-q', fresh])
    expect(await both(fresh)).toEqual({ commit: null, dirty: null })
  })

  it("names HEAD's commit, dirty only when a tracked file changed", async () => {
    const repo = join(root, 'repo')
    execFileSync('git', ['init', '-q', repo])
    writeFileSync(join(repo, 'a.txt'), 'one\n')
    git(repo, 'add', 'a.txt')
    git(repo, 'commit', '-q', '-m', 'first')
    const head = git(repo, 'rev-parse', 'HEAD')
    expect(await both(repo)).toEqual({ commit: head, dirty: false })
    writeFileSync(join(repo, 'untracked.txt'), 'new\n')
    expect(await both(repo)).toEqual({ commit: head, dirty: false })
    writeFileSync(join(repo, 'a.txt'), 'two\n')
    expect(await both(repo)).toEqual({ commit: head, dirty: true })
    git(repo, 'add', 'a.txt')
    expect(await both(repo)).toEqual({ commit: head, dirty: true })
  })
})
