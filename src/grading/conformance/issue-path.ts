/** `properties[0].distribution.positive` from a zod issue path. */
function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out
}

/** One zod issue as `path: message`, with unknown keys named as such. */
export function describeIssue(issue: {
  code?: string
  path: ReadonlyArray<PropertyKey>
  message: string
  keys?: string[]
}): string {
  const where = issuePath(issue.path)
  const message =
    issue.code === 'unrecognized_keys' && issue.keys?.length
      ? `unknown ${issue.keys.length === 1 ? 'property' : 'properties'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : /received undefined$/.test(issue.message)
        ? 'missing'
        : issue.message
  return where ? `${where}: ${message}` : message
}

/** The issue to report: an unknown key first (a typo usually explains the rest), else the first. */
export function firstIssue<T extends { code?: string }>(issues: readonly T[]): T {
  return issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!
}
