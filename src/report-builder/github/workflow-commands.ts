import { underpoweredLine } from '../power-note.js'
import { escapeCommandData, escapeCommandProperty } from './escape.js'
import { failureGroup, type GithubGateView } from './gate-view.js'

interface WorkflowCommandProps {
  title?: string
  file?: string
  line?: number
}

/** `::error title=…,file=…,line=…::message`, every value escaped per GitHub's rules. */
export function workflowCommand(
  kind: 'error' | 'warning' | 'notice',
  message: string,
  props: WorkflowCommandProps = {},
): string {
  const parts: string[] = []
  if (props.title !== undefined) parts.push(`title=${escapeCommandProperty(props.title)}`)
  if (props.file !== undefined) parts.push(`file=${escapeCommandProperty(props.file)}`)
  if (props.line !== undefined) parts.push(`line=${props.line}`)
  return `::${kind}${parts.length ? ` ${parts.join(',')}` : ''}::${escapeCommandData(message)}`
}

function where(view: GithubGateView, group: string | null): Pick<WorkflowCommandProps, 'file' | 'line'> {
  const at = group === null ? undefined : view.files?.get(group)
  if (!at) return {}
  return at.line === undefined ? { file: at.file } : { file: at.file, line: at.line }
}

/**
 * The run's annotations: one `::error` per gate failure (title = its group, or `dataforge-evals gate` for a
 * failure of the whole run), one `::warning` naming every underpowered group, and one per note (groups not run,
 * patterns not checked in a filtered run).
 */
export function gateAnnotations(view: GithubGateView): string[] {
  const lines = view.failures.map((failure) => {
    const group = failureGroup(view, failure)
    return workflowCommand('error', failure, { title: group ?? 'dataforge-evals gate', ...where(view, group) })
  })
  const power = underpoweredLine(view.deltas, view.alpha)
  if (power) lines.push(workflowCommand('warning', power, { title: 'dataforge-evals gate (underpowered groups)' }))
  for (const note of view.notes)
    lines.push(workflowCommand('warning', note, { title: 'dataforge-evals gate (not checked)' }))
  return lines
}
