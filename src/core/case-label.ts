/** How reports and test names show a case: `id`, or `id#t<n>` for a conversation's turn n. */
export function caseLabel(c: { caseId: string; turn: number | null }): string {
  return c.turn === null ? c.caseId : `${c.caseId}#t${c.turn}`
}
