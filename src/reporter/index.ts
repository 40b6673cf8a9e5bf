/** The reporters: Vitest's and Jest's, thin over a shared base, the run state and the report builder. */

export { mergeShards, shardPaths } from './jest/shards.js'
