import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../files/write-atomic.js'
import { gateAnnotations, type GithubGateView, renderJobSummary, renderPrComment } from './github/index.js'

/** `github` of the reporter options and `--github` of the CLI: on, off, or (undefined) on when `GITHUB_ACTIONS=true`. */
export type GithubSetting = boolean | { reportUrl?: string } | undefined

export interface GithubOutputPlan {
  /** Link to the HTML report artifact: the option's, else `DATAFORGE_REPORT_URL`. */
  reportUrl: string | null
  /** `$GITHUB_STEP_SUMMARY`, when set. */
  summaryPath: string | null
}

/** Whether GitHub Actions output is on for this run, and where it goes; null when off. */
export function githubOutputPlan(setting: GithubSetting, env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>): GithubOutputPlan | null {
  const on = setting === undefined ? env.GITHUB_ACTIONS === 'true' : setting !== false
  if (!on) return null
  const optionUrl = typeof setting === 'object' ? setting.reportUrl : undefined
  return { reportUrl: optionUrl || env.DATAFORGE_REPORT_URL || null, summaryPath: env.GITHUB_STEP_SUMMARY || null }
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
  return { annotations: gateAnnotations(full), written }
}
