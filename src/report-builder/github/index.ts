export { escapeCommandData, escapeCommandProperty } from './escape.js'
export { failureGroup, type GithubGateView } from './gate-view.js'
export { PR_COMMENT_MARKER, renderJobSummary, renderPrComment } from './summary.js'
export { gateAnnotations, workflowCommand } from './workflow-commands.js'
