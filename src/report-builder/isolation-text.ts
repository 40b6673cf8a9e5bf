import type { IsolationInfo } from '../core/agent.js'

/**
 * `noop: sandbox (bubblewrap 0.8.0)`; `py: process (files unrestricted)`; `baseline: none (in process)`. Null when
 * no run recorded its wall (a test that ran no agent the harness resolved): reports then leave the line out
 * rather than print a bare "—".
 */
export function describeIsolation(list: ReadonlyArray<{ agent: string } & IsolationInfo> | undefined): string | null {
  if (!list?.length) return null
  return list
    .map((i) => {
      const how =
        i.level === 'none'
          ? 'in process'
          : i.tool === null
            ? 'files unrestricted'
            : `${i.tool}${i.version ? ` ${i.version}` : ''}`
      return `${i.agent}: ${i.level} (${how})`
    })
    .join('; ')
}
