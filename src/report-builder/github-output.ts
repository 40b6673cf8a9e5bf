import { existsSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../files/write-atomic.js'
import { addToManifest } from './manifest.js'
import { MANIFEST_FILE } from './manifest-build.js'
import { gateAnnotations, type GithubGateView, renderJobSummary, renderPrComment } from './github/index.js'
import type { GithubOutputPlan } from './github/plan.js'

export { githubOutputPlan } from './github/plan.js'

/**
 * The run's GitHub output: the job summary appended to `$GITHUB_STEP_SUMMARY` (when set), `pr-comment.md` in the
 * report folder, and the annotation lines, returned for the caller to print on stdout (where the runner reads
 * workflow commands). Returns the files written too.
 */
export async function writeGithubOutput(
  view: Omit<GithubGateView, 'reportUrl'>,
  plan: GithubOutputPlan,
  reportDir: string,
): Promise<{ annotations: string[]; written: string[] }> {
  const full = { ...view, reportUrl: plan.reportUrl }
  const written: string[] = []
  if (plan.summaryPath) {
    await appendFile(plan.summaryPath, `${renderJobSummary(full)}\n`)
    written.push(plan.summaryPath)
  }
  const comment = join(reportDir, 'pr-comment.md')
  const text = renderPrComment(full)
  // In a report folder the comment and the manifest that covers it are written as one unit, so `verify` passes
  // on the uploaded folder.
  if (existsSync(join(reportDir, MANIFEST_FILE))) await addToManifest(reportDir, new Map([[comment, text]]))
  else await writeFileAtomic(comment, text)
  written.push(comment)
  return { annotations: gateAnnotations(full), written }
}
