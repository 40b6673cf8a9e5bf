import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = resolve(fileURLToPath(import.meta.url), '../../..')
/** The canonical Raha/Baran pairs and the WikiTableQuestions slice, committed in the repository (and shipped). */
export const bundledDatasets = resolve(repoRoot, 'datasets')
export const fixturesDir = resolve(repoRoot, 'fixtures/csv')

/** A fresh folder under the OS temp dir; call the returned cleanup in afterEach/afterAll. */
export async function tempDir(prefix = 'dataforge-datasets-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** The error a promise rejects with; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the promise to reject')
}
