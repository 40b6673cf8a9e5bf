import { InputError } from '../../core/errors.js'

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
export function githubOutputPlan(
  setting: GithubSetting,
  env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>,
): GithubOutputPlan | null {
  const on = typeof setting === 'boolean' ? setting : env.GITHUB_ACTIONS === 'true'
  if (!on) return null
  const optionUrl = typeof setting === 'object' ? setting.reportUrl : undefined
  const reportUrl = optionUrl || env.DATAFORGE_REPORT_URL || null
  if (reportUrl !== null && !/^https?:\/\/[^\s]+$/i.test(reportUrl)) {
    throw new InputError(
      `${optionUrl ? 'github.reportUrl' : 'DATAFORGE_REPORT_URL'} must be an http(s) URL with no spaces, got ${JSON.stringify(reportUrl)}`,
    )
  }
  return { reportUrl, summaryPath: env.GITHUB_STEP_SUMMARY || null }
}
