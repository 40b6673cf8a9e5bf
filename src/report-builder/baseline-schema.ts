import { z } from 'zod'

/**
 * baseline.json: only what the gate needs, sorted, with no dates, durations, paths, fixes or values, so a
 * commit of it shows only real changes on any machine. One entry per executed run (skipped runs have no
 * result), grouped as the leaderboard groups.
 */
const BaselineRunSchema = z.strictObject({
  case: z.string(),
  turn: z.number().int().nullable(),
  trial: z.number().int().nonnegative(),
  correct: z.boolean().nullable(),
  f1: z.number().nullable(),
  tp: z.number().int().nullable(),
  fp: z.number().int().nullable(),
  fn: z.number().int().nullable(),
  datasetSha256: z.strictObject({ dirty: z.string(), clean: z.string() }).nullable(),
})
const BaselineGroupSchema = z.strictObject({
  group: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  suite: z.string(),
  dataset: z.string(),
  category: z.string().nullable(),
  runs: z.array(BaselineRunSchema),
})
export const BaselineFileSchema = z.strictObject({
  baselineVersion: z.literal(1),
  groups: z.array(BaselineGroupSchema),
})
export type BaselineFile = z.infer<typeof BaselineFileSchema>
export type BaselineGroup = z.infer<typeof BaselineGroupSchema>
