import { z } from 'zod'

/** The wall an agent ran behind (see `IsolationInfo` in ./agent.ts and docs/isolation.md). */
export const IsolationInfoSchema = z.object({
  level: z.enum(['sandbox', 'process', 'none']),
  tool: z.string().nullable(),
  version: z.string().nullable(),
  files: z.string(),
})
