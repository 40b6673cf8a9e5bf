export { createDataAgent, type ToolDataAgentOptions, type ToolDataAgent } from './agent.js'
export { dataAgentFromCli, type DataAgentCliOptions } from './cli.js'
export { DataAgentSession, type AskContext } from './session.js'
export {
  DataEngine,
  ToolError,
  type TableSource,
  type EngineOptions,
  type QueryResult,
  type RelationInfo,
  type ColumnInfo,
} from './engine.js'
export { DataAgentFailure, statsMetrics, type TurnStats } from './stats.js'
export { toolDefinitions, TOOL_NAMES, type ToolName } from './tools.js'
export { MAX_CHART_ROWS } from './chart.js'
export { checkSnapshotTrap, type SnapshotTrapOptions } from './snapshot-trap.js'
