import { existsSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { InputError } from '../core/errors.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import { addToManifest } from './manifest.js'
import { MANIFEST_FILE } from './manifest-build.js'
import { gateAnnotations, type GithubGateView, renderJobSummary, renderPrComment } from './github/index.js'

/**
 * `github` of the reporter options and `--github` of the CLI: `true` on, `false` off; undefined or an object: on
 * when `GITHUB_ACTIONS=true`. The object's `reportUrl` links the PR comment to the HTML report artifact.
 */
export type GithubSetting = boolean | { reportUrl?: string | undefined } | undefined

export interface GithubOutputPlan {
  /** Link to the HTML report artifact: the option's, else `DATAFORGE_REPORT_URL`. */
  reportUrl: string | null
  /** `$GITHUB_STEP_SUMMARY`, when set. */
  summaryPath: string | null
}

/** Whether GitHub Actions output is on for this run, and where it goes; null when off. */
export function githubOutputPlan(setting: GithubSetting, env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>): GithubOutputPlan | null {
  const on = typeof setting === 'boolean' ? setting : env.GITHUB_ACTIONS === 'true'
  if (!on) return null
  const optionUrl = typeof setting === 'object' ? setting.reportUrl : undefined
  const reportUrl = optionUrl || env.DATAFORGE_REPORT_URL || null
  if (reportUrl !== null && !/^https?:\/\/[^\s]+$/i.test(reportUrl)) {
    throw new InputError(`${optionUrl ? 'github.reportUrl' : 'DATAFORGE_REPORT_URL'} must be an http(s) URL with no spaces, got ${JSON.stringify(reportUrl)}`)
  }
  return { reportUrl, summaryPath: env.GITHUB_STEP_SUMMARY || null }
}

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
  await writeFileAtomic(comment, renderPrComment(full))
  written.push(comment)
  // A report folder's manifest covers the comment too, so `verify` passes on the uploaded folder.
  if (existsSync(join(reportDir, MANIFEST_FILE))) await addToManifest(reportDir, [comment])
  return { annotations: gateAnnotations(full), written }
}
