import { z } from 'zod'
import { FixSchema } from './schemas.js'

/** A ratio of counts: precision, recall, F1, a pass rate. Run files holding anything else are refused. */
export const RateSchema = z.number().min(0, 'must be a rate in [0, 1]').max(1, 'must be a rate in [0, 1]')
/** A count of cells or runs. */
export const CountSchema = z
  .number()
  .int('must be a non-negative integer')
  .nonnegative('must be a non-negative integer')

export const PRFSchema = z.object({
  tp: CountSchema,
  fp: CountSchema,
  fn: CountSchema,
  precision: RateSchema,
  recall: RateSchema,
  f1: RateSchema,
})
/** Integer counts with the ratios derived from them. */
export type PRF = z.infer<typeof PRFSchema>

export const CellIssueSchema = z.object({
  row: z.number(),
  column: z.string(),
  /** What the agent proposed (absent for missed repairs). */
  got: z.string().optional(),
  /** The clean value (absent for over-repairs). */
  want: z.string().optional(),
  /** The dirty value the agent saw. */
  dirty: z.string().optional(),
})
export type CellIssue = z.infer<typeof CellIssueSchema>

export const RepairDiagnosticsSchema = z.object({
  /** Fixes aimed at cells that do not exist: unknown column or row out of range (each an FP). */
  wrongCell: z.array(CellIssueSchema),
  /** Right cell, wrong value (each one FP and one FN). */
  wrongValue: z.array(CellIssueSchema),
  /** A change to a cell that held no error (each an FP). */
  overRepair: z.array(CellIssueSchema),
  /** An erroneous cell left alone (each an FN). */
  missedRepair: z.array(CellIssueSchema),
  /** Fixes whose column matched a canonical name only case-insensitively (still FPs: grading is exact). */
  caseInsensitiveColumn: z.array(CellIssueSchema),
  /** Fixes overwritten by a later fix for the same cell (last write wins). */
  duplicateCells: z.number().int().nonnegative(),
  /** Fixes that set a cell to the value it already had: not repairs, not scored. */
  noopFixes: z.number().int().nonnegative(),
  /** Items that were not fixes at all (wrong shape); each counted as an FP. */
  malformed: z.array(z.string()),
})
export type RepairDiagnostics = z.infer<typeof RepairDiagnosticsSchema>

export const KindRecallSchema = z.object({
  total: CountSchema,
  tp: CountSchema,
  recall: RateSchema,
})

export const RepairScoreSchema = PRFSchema.extend({
  /** Error detection: P/R/F1 of the set of cells touched, whatever the value. */
  detection: PRFSchema,
  diagnostics: RepairDiagnosticsSchema,
  perColumn: z.record(z.string(), PRFSchema),
  /** Recall per corruption kind, where kinds are known. */
  perKind: z.record(z.string(), KindRecallSchema),
  /** The effective fixes after validation and last-write-wins, sorted by row, then column position. */
  fixes: z.array(FixSchema),
  warnings: z.array(z.string()),
  comparator: z.string(),
})
export type RepairScore = z.infer<typeof RepairScoreSchema>
