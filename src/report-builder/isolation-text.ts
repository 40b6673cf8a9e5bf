import type { IsolationInfo } from '../core/agent.js'

/** `noop: sandbox (bubblewrap 0.8.0)`; `py: process (files unrestricted)`; `baseline: none (in process)`. */
export function describeIsolation(list: ReadonlyArray<{ agent: string } & IsolationInfo> | undefined): string {
  if (!list?.length) return '—'
  return list
    .map((i) => {
      const how = i.level === 'none' ? 'in process' : i.tool === null ? 'files unrestricted' : `${i.tool}${i.version ? ` ${i.version}` : ''}`
      return `${i.agent}: ${i.level} (${how})`
    })
    .join('; ')
}
