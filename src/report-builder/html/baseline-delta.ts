/**
 * What the page needs of a group's comparison with the baseline: the report's `GroupDelta` fits, and so do
 * richer verdicts (a paired F1 test, new groups), which are shown when present.
 */
export interface BaselineDelta {
  group: string
  /** null for a group the baseline does not have. */
  before: { f1: number | null; passRate: number | null } | null
  after: { f1: number | null; passRate: number | null }
  status?: 'compared' | 'new'
  verdict: {
    n: number
    b: number
    c: number
    /** null for a deterministic change (exact, no p-value). */
    p: number | null
    significantWorse: boolean
    significantBetter?: boolean
    belowFloor: boolean
    f1?: { p: number | null; significantWorse?: boolean; significantBetter?: boolean } | null
  } | null
}
