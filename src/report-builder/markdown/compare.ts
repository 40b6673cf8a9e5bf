import { counted, formatNumber, formatP, formatSigned } from '../../stats/number-format.js'
import type { Comparison, PairedGroupComparison } from '../compare.js'
import { table } from '../figure-text.js'
import { unitsNeeded } from '../../stats/power.js'
import { markdownCell, markdownCode, markdownText } from '../../core/escape-text.js'
import { powerText, verdictLabel, verdictLine, detectableText, testName, unitsText } from '../comparison-verdict.js'

/** Markdown: one row per group and an overall row, the verdict, and how the numbers were computed. */
export function renderComparisonMarkdown(cmp: Comparison): string {
  const header = [
    'group',
    'units',
    'method',
    'b (A✓ B✗)',
    'c (A✗ B✓)',
    'Score A',
    'Score B',
    'ΔScore',
    'pass/fail p (test)',
    'F1 units',
    'F1 A',
    'F1 B',
    'ΔF1 [95% CI]',
    'F1 p (test)',
    'verdict',
  ]
  const row = (g: PairedGroupComparison): string[] => [
    g.key === null ? '**overall**' : markdownCell(g.group),
    unitsText(g),
    g.method,
    String(g.b),
    String(g.c),
    formatNumber(g.scoreA),
    formatNumber(g.scoreB),
    formatSigned(g.delta),
    g.method === 'deterministic'
      ? 'exact change'
      : `${formatP(g.p)}${g.stars ? ` ${g.stars}` : ''} (${testName(g.passFailTest)})`,
    g.f1 ? String(g.f1.n) : '0',
    g.f1 ? formatNumber(g.f1.meanA) : '—',
    g.f1 ? formatNumber(g.f1.meanB) : '—',
    g.f1 ? `${formatSigned(g.f1.meanDelta)} [${formatSigned(g.f1.low)}, ${formatSigned(g.f1.high)}]` : '—',
    g.f1
      ? g.f1.p === null
        ? 'exact change'
        : `${formatP(g.f1.p)}${g.f1.stars ? ` ${g.f1.stars}` : ''} (${testName(g.f1.test)})`
      : '—',
    g.failed ? `**${verdictLabel(g)}**` : verdictLabel(g),
  ]
  const pairing =
    cmp.mode === 'same-arm'
      ? 'units paired within agent/model × suite × dataset × category'
      : 'two arms: units paired across agents'
  const settings = { alpha: cmp.alpha, floor: cmp.floor, against: 'A' }
  const failing = [cmp.overall, ...cmp.groups].filter((g) => g.failed)
  const bar = `α = ${cmp.alpha}${cmp.floor === null ? '' : `, floor ${cmp.floor}`}${cmp.minDelta ? `, minDelta ${cmp.minDelta}` : ''}`
  const verdict = failing.length
    ? [
        `**B is worse than A** (${bar}):`,
        '',
        ...failing.map((g) => `- ${markdownText(verdictLine(g, settings))}`),
      ].join('\n')
    : `**No significant regression** of B vs A (${bar}).`
  const underpowered = [cmp.overall, ...cmp.groups].filter((g) => powerText(g, cmp.alpha))
  const power = underpowered.length
    ? `\n**Power:** ${underpowered.map((g) => `${g.key === null ? 'overall' : markdownText(g.group)}: ${powerText(g, cmp.alpha)}`).join('; ')}.\n`
    : ''
  const unpaired =
    cmp.overall.onlyA || cmp.overall.onlyB
      ? `\nUnpaired units (left out of the tests): ${cmp.overall.onlyA} only in A, ${cmp.overall.onlyB} only in B.\n`
      : ''
  const detectable = [cmp.overall, ...cmp.groups].flatMap((g) =>
    detectableText(g) ? [`${g.key === null ? 'overall' : markdownText(g.group)}: ${detectableText(g)}`] : [],
  )
  const mde = detectable.length ? `\n**Detectable effects:** ${detectable.join('; ')}.\n` : ''
  const rules = [cmp.overall, ...cmp.groups].flatMap((g) =>
    g.unitNote ? [`- ${g.key === null ? 'overall' : markdownText(g.group)}: ${g.unitNote}`] : [],
  )
  const unitRules = rules.length ? `\n**Units:**\n\n${rules.join('\n')}\n` : ''
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
    mde,
    unitRules,
    `The unit is the case: a question, a conversation (its turns cluster in it) or a repair task with its own data; trials on the same data are averaged within it, and trials whose seed made new data are units of their own; the overall row's unit is the case, with agents nested in it. ` +
      `b = units where A did better on pass/fail than B; c = the reverse; ΔScore = Score B − Score A over the paired units (each unit its pass rate); ΔF1 = mean over units of F1 B − F1 A. ` +
      `A run that did not score (crash, timeout, budget) is not correct and F1 0; B failing where A scored fails. ` +
      `A side is deterministic in a unit only with 2 or more identical trials; where every unit is deterministic on both sides, each unit is compared exactly (no p) and a drop beyond minDelta (${cmp.minDelta}) fails. ` +
      `Otherwise, paired (2+ units): pass/fail by McNemar on units when every unit's outcome is binary (exact binomial when b + c ≤ 25, else χ² with continuity correction, 1 df), else a paired sign-flip test on unit pass rates; ` +
      `F1 by a paired sign-flip test on unit means (exact up to 16 units, seed ${cmp.seed}), with a t 95% interval. ` +
      `One unit: the two sides' trials as two samples (permutation test), or untestable here when too few trials. ` +
      `${familyText(cmp)}` +
      `A group fails when B is significantly worse after the correction, drops exactly, fails where A scored, scored nothing, or is below the floor. ` +
      `With n units no paired test gives p below 2·0.5^n, so fewer than ${counted(unitsNeeded(cmp.alpha), 'unit')} cannot reach α = ${cmp.alpha}. ` +
      `Stars: * p < 0.05, ** p < 0.01, *** p < 0.001.`,
    '',
  ].join('\n')
}

/** `The p-values are Holm-corrected over 22 tests …`: how many tests the gate corrected for together. */
function familyText(cmp: Comparison): string {
  const n = cmp.family.tests
  if (n <= 1)
    return n === 1 ? 'The gate ran 1 test: no correction needed. ' : 'No test could reach α, so none was corrected. '
  return `Each group gates on its primary test (F1 where it measures F1, else pass/fail; the other p is shown only); the gate's ${n} tests (the groups and the overall row) are Holm-corrected together, so an unchanged agent fails at most α of the time. `
}

/** Stable JSON (two-space indent, trailing newline). */
export function comparisonToJson(cmp: Comparison): string {
  return `${JSON.stringify(cmp, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`
}
