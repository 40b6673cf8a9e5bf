import { tokensSpentAndSaved } from '../../core/usage.js'
import type { DistributionAnalysis } from '../../grading/conformance/analysis.js'
import type { ConformanceEvaluation } from '../../grading/conformance/evaluate.js'
import { formatNumber, formatPClause, formatSigned } from '../../stats/number-format.js'
import { fixed, seconds, table } from '../figure-text.js'
import { markdownCell, markdownText } from '../../core/escape-text.js'

function propertyTable(a: DistributionAnalysis): string {
  const expectedHeader = a.expectedSource === 'plan' ? 'expected (plan)' : 'expected (request)'
  const rows = Object.keys(a.evaluatedDistributions).map((label) => [
    markdownCell(label),
    formatNumber(a.requestedDistributions[label] ?? 0, 1),
    String(a.expectedDistributions[label] ?? 0),
    String(a.evaluatedDistributions[label]),
    formatNumber(a.evaluatedPercentages[label], 1),
    formatSigned((a.evaluatedPercentages[label] ?? 0) - (a.requestedDistributions[label] ?? 0), 1),
  ])
  return table(['label', 'requested %', expectedHeader, 'evaluated', 'evaluated %', 'Δ points'], rows)
}

function testLine(a: DistributionAnalysis): string {
  if (!a.test) return 'No goodness-of-fit test: no sample was classified.'
  const t = a.test
  if (t.method === 'impossible') {
    const labels = Object.keys(a.evaluatedDistributions)
    const which = (t.impossible ?? []).map((i) => markdownText(labels[i] ?? '?')).join(', ')
    return `Score ${fixed(a.score, 1)} (total variation distance ${fixed(a.totalVariationDistance)}); p = 0: ${which} observed though requested at 0%, impossible under the request (decided without a test statistic).`
  }
  const method =
    t.method === 'exact-multinomial'
      ? `exact multinomial (${t.outcomes} outcomes)`
      : `χ² approximation, df ${t.degreesOfFreedom}`
  return `Score ${fixed(a.score, 1)} (total variation distance ${fixed(a.totalVariationDistance)}); χ² = ${formatNumber(t.statistic, 3)}, ${formatPClause(t.pValue)} by ${method}.`
}

/** The Markdown of one conformance evaluation (the CLI's `--output`). Dates and durations sit in their own block. */
export function renderConformanceMarkdown(result: ConformanceEvaluation, title = 'Synthetic-data conformance'): string {
  const parts = [
    `# ${title}`,
    '',
    `- status: ${result.status}`,
    `- conformance score: ${result.conformanceScore === null ? '—' : formatNumber(result.conformanceScore, 1)} of 100`,
    `- evaluation id: ${result.id}`,
    ...(result.errorMessage ? [`- error: ${markdownText(result.errorMessage)}`] : []),
    '',
    markdownText(result.conformanceExplanation),
    '',
    'Score = per property 100 × (1 − total variation distance between requested and evaluated shares), averaged ' +
      'weighted by samples analyzed, times the share of samples passing the rules when there are rules.',
    '',
  ]
  if (result.conformantAreas.length)
    parts.push('## Conformant', '', ...result.conformantAreas.map((a) => `- ${markdownText(a)}`), '')
  if (result.nonConformantAreas.length)
    parts.push('## Not conformant', '', ...result.nonConformantAreas.map((a) => `- ${markdownText(a)}`), '')
  for (const a of result.distributionAnalysis) {
    parts.push(
      `## ${markdownText(a.propertyName)}`,
      '',
      `Classifier ${markdownText(a.classifier)}; ${a.totalSamplesAnalyzed} of ${a.totalSamples} samples analyzed.`,
      '',
    )
    parts.push(propertyTable(a), '', testLine(a), '')
    if (a.planAgreement !== null)
      parts.push(`Samples labelled as planned: ${formatNumber(100 * a.planAgreement, 1)}%.`, '')
    if (a.unclassifiedSamples > 0) {
      parts.push(
        `${a.unclassifiedSamples} unclassified (${a.classifierErrors} classifier failures), left out of the shares; first: ` +
          a.unclassifiedExamples.map((e) => `sample ${e.sampleIndex} (${markdownText(e.reason)})`).join('; '),
        '',
      )
    }
  }
  if (result.rules) {
    const r = result.rules
    parts.push(
      '## Rules',
      '',
      `${r.samplesPassing} of ${r.samplesChecked} samples pass (${formatNumber(100 * r.passRate, 1)}%).`,
      '',
    )
    const fields = Object.entries(r.violationsByField)
    if (fields.length)
      parts.push(
        table(
          ['field', 'samples with a violation'],
          fields.map(([f, n]) => [markdownCell(f), String(n)]),
        ),
        '',
      )
  }
  if (result.usage) {
    const u = result.usage
    parts.push(
      '## Classifier usage',
      '',
      `${u.calls} calls, ${tokensSpentAndSaved(u).spent} tokens, ${u.cachedCalls} answered from the cache.`,
      '',
    )
  }
  parts.push(
    '### Dates and durations',
    '',
    `- started (UTC): ${result.startedAt}`,
    `- completed (UTC): ${result.completedAt}`,
    `- duration: ${seconds(result.durationSeconds)}`,
    '',
  )
  return parts.join('\n')
}
