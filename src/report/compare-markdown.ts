import { formatNumber, formatP, formatSigned } from '../stats/format.js'
import type { Comparison, PairedGroupComparison } from './compare.js'
import { table } from './format.js'
import { powerText, verdictLabel, verdictLine } from './verdict.js'
import { markdownCell, markdownCode, markdownText } from '../core/escape-text.js'

/** Markdown: one row per group and an overall row, the verdict, and how the numbers were computed. */
export function renderComparisonMarkdown(cmp: Comparison): string {
  const header = [
    'group',
    'pairs',
    'b (A✓ B✗)',
    'c (A✗ B✓)',
    'Score A',
    'Score B',
    'ΔScore',
    'pass/fail McNemar p',
    'F1 pairs',
    'F1 A',
    'F1 B',
    'ΔF1 [95% CI]',
    'F1 paired p',
    'verdict',
  ]
  const row = (g: PairedGroupComparison): string[] => [
    g.key === null ? '**overall**' : markdownCell(g.group),
    String(g.n),
    String(g.b),
    String(g.c),
    formatNumber(g.scoreA),
    formatNumber(g.scoreB),
    formatSigned(g.delta),
    `${formatP(g.p)}${g.stars ? ` ${g.stars}` : ''} (${g.mcnemar.method === 'exact' ? 'exact' : 'χ²'})`,
    g.f1 ? String(g.f1.n) : '0',
    g.f1 ? formatNumber(g.f1.meanA) : '—',
    g.f1 ? formatNumber(g.f1.meanB) : '—',
    g.f1 ? `${formatSigned(g.f1.meanDelta)} [${formatSigned(g.f1.low)}, ${formatSigned(g.f1.high)}]` : '—',
    g.f1 ? `${formatP(g.f1.p)}${g.f1.stars ? ` ${g.f1.stars}` : ''}` : '—',
    g.failed ? `**${verdictLabel(g)}**` : verdictLabel(g),
  ]
  const pairing =
    cmp.mode === 'same-arm'
      ? 'rows paired on (case, turn, trial) within agent/model × suite × dataset × category'
      : 'two arms: rows paired on (dataset, case, turn, trial) across agents'
  const settings = { alpha: cmp.alpha, floor: cmp.floor, against: 'A' }
  const failing = [cmp.overall, ...cmp.groups].filter((g) => g.failed)
  const bar = `α = ${cmp.alpha}${cmp.floor === null ? '' : `, floor ${cmp.floor}`}`
  const verdict = failing.length
    ? [`**B is worse than A** (${bar}):`, '', ...failing.map((g) => `- ${markdownText(verdictLine(g, settings))}`)].join('\n')
    : `**No significant regression** of B vs A (${bar}).`
  const underpowered = [cmp.overall, ...cmp.groups].filter((g) => powerText(g, cmp.alpha))
  const power = underpowered.length
    ? `\n**Power:** ${underpowered.map((g) => `${g.key === null ? 'overall' : markdownText(g.group)}: ${powerText(g, cmp.alpha)}`).join('; ')}.\n`
    : ''
  const unpaired =
    cmp.overall.onlyA || cmp.overall.onlyB
      ? `\nUnpaired rows (left out of the tests): ${cmp.overall.onlyA} only in A, ${cmp.overall.onlyB} only in B.\n`
      : ''
  return [
    `## Paired comparison`,
    '',
    `A: ${markdownCode(cmp.labelA)} · B: ${markdownCode(cmp.labelB)} · ${pairing}.`,
    '',
    table(header, [...cmp.groups.map(row), row(cmp.overall)]),
    '',
    verdict,
    power,
    unpaired,
    `b = pairs A got right and B did not; c = the reverse; ΔScore = Score B − Score A = (c − b)/pairs; ΔF1 = mean of F1 B − F1 A over the F1 pairs. ` +
      `A group fails when B is significantly worse on pass/fail (McNemar: exact two-sided binomial when b + c ≤ 25, else χ² with continuity correction, 1 df) ` +
      `or on F1 (paired sign-flip permutation test, exact up to 16 pairs, percentile-bootstrap 95% interval, seed ${cmp.seed}), or below the floor. ` +
      `With n pairs no test can give p below 2·0.5^n, so fewer than ${cmp.overall.power.pairsNeeded} pairs cannot reach α = ${cmp.alpha}. ` +
      `Stars: * p < 0.05, ** p < 0.01, *** p < 0.001.`,
    '',
  ].join('\n')
}

/** Stable JSON (two-space indent, trailing newline). */
export function comparisonToJson(cmp: Comparison): string {
  return `${JSON.stringify(cmp, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`
}
