import { sha256Hex } from './hash.js'
import type { CellIssue, RepairDiagnostics, RepairScore } from './repair-score.js'
import type { Fix } from './schemas.js'

/*
 * The size policy for values that reach reports. Grading always sees the agent's full values; what a RunRecord
 * keeps (and so every report, journal line, cache and export) holds at most MAX_VALUE_CHARS characters of any
 * one agent-made string: fix values, the `got` of diagnostics, malformed items, failure and validation messages,
 * warnings. A cut value keeps its first MAX_VALUE_CHARS characters, and the record's `warnings` say which field
 * was cut with the full value's length and sha256, so it can still be matched against the agent's output.
 * Without it, two 20 M-character fixes per trial made a 153 MB report folder per trial and a run of 8 trials
 * died with `RangeError: Invalid string length`, writing no report at all.
 */
export const MAX_VALUE_CHARS = 10_000

/** How every note of a cut starts: what reports look for in a record's `warnings`. */
export const VALUE_CUT_MARK = 'value cut: '

const CUT_NOTE = /^value cut: ([\w.[\]]+) has \d+ characters \(sha256 [0-9a-f]{64}\)/

/** The field a cut note names (`fixes[0].newValue`), or null when `warning` is no cut note. */
export function cutField(warning: string): string | null {
  return warning.startsWith(VALUE_CUT_MARK) ? (CUT_NOTE.exec(warning)?.[1] ?? null) : null
}

/** Collects the cuts of one record. */
export class ValueCuts {
  readonly notes: string[] = []

  /** `value` as a record keeps it; a cut is noted under `field`. */
  text(value: string, field: string): string {
    if (value.length <= MAX_VALUE_CHARS) return value
    this.notes.push(
      `${VALUE_CUT_MARK}${field} has ${value.length} characters (sha256 ${sha256Hex(value)}); the record keeps the first ${MAX_VALUE_CHARS}`,
    )
    return value.slice(0, MAX_VALUE_CHARS)
  }

  nullable(value: string | null, field: string): string | null {
    return value === null ? null : this.text(value, field)
  }

  /** Fixes with long `newValue`s cut; the same array when none is long. */
  fixes(fixes: Fix[] | null): Fix[] | null {
    if (
      fixes === null ||
      !fixes.some((f) => f.newValue.length > MAX_VALUE_CHARS || (f.reason?.length ?? 0) > MAX_VALUE_CHARS)
    )
      return fixes
    return fixes.map((f, i) => {
      const out: Fix = { ...f, newValue: this.text(f.newValue, `fixes[${i}].newValue`) }
      if (f.reason !== undefined) out.reason = this.text(f.reason, `fixes[${i}].reason`)
      return out
    })
  }

  diagnostics(d: RepairDiagnostics | null): RepairDiagnostics | null {
    if (d === null) return null
    const lists = ['wrongCell', 'wrongValue', 'overRepair', 'missedRepair', 'caseInsensitiveColumn'] as const
    const long = (s: string | undefined) => s !== undefined && s.length > MAX_VALUE_CHARS
    const anyLong =
      lists.some((k) => d[k].some((c) => long(c.got) || long(c.dirty) || c.column.length > MAX_VALUE_CHARS)) ||
      d.malformed.some((m) => m.length > MAX_VALUE_CHARS)
    if (!anyLong) return d
    const cut = (k: (typeof lists)[number]) =>
      d[k].map((c, i) => {
        const out: CellIssue = { ...c, column: this.text(c.column, `diagnostics.${k}[${i}].column`) }
        if (c.got !== undefined) out.got = this.text(c.got, `diagnostics.${k}[${i}].got`)
        if (c.dirty !== undefined) out.dirty = this.text(c.dirty, `diagnostics.${k}[${i}].dirty`)
        return out
      })
    return {
      ...d,
      wrongCell: cut('wrongCell'),
      wrongValue: cut('wrongValue'),
      overRepair: cut('overRepair'),
      missedRepair: cut('missedRepair'),
      caseInsensitiveColumn: cut('caseInsensitiveColumn'),
      malformed: d.malformed.map((m, i) => this.text(m, `diagnostics.malformed[${i}]`)),
    }
  }

  warnings(warnings: string[]): string[] {
    const kept = warnings.some((w) => w.length > MAX_VALUE_CHARS)
      ? warnings.map((w, i) => this.text(w, `warnings[${i}]`))
      : warnings
    return this.notes.length ? [...kept, ...this.notes] : kept
  }
}

/**
 * A repair score cut as a record would keep it, the notes in its own `warnings`: what a matcher stores on a
 * test, so no long value crosses from a test worker to the reporter. The same score when nothing is long.
 */
export function capRepairScore(score: RepairScore): RepairScore {
  const cuts = new ValueCuts()
  const fixes = cuts.fixes(score.fixes) ?? score.fixes
  const diagnostics = cuts.diagnostics(score.diagnostics) ?? score.diagnostics
  const warnings = cuts.warnings(score.warnings)
  if (warnings === score.warnings) return score
  return { ...score, fixes, diagnostics, warnings }
}
