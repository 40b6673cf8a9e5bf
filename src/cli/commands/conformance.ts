import { mkdir, stat } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { modelClassifier } from '../../adapters/model-classifier.js'
import { type ChatClient, createChatClient, resolveCacheOptions } from '../../adapters/providers/index.js'
import { InputError } from '../../core/errors.js'
import { type Classifier, sharedFieldProblem } from '../../grading/conformance/classify.js'
import { type ConformanceEvaluation, evaluateConformance } from '../../grading/conformance/evaluate.js'
import { conformanceMetrics } from '../../grading/conformance/metrics.js'
import { resolveSpec } from '../../grading/conformance/spec.js'
import { conformanceVerdict } from '../../grading/conformance/bars.js'
import { renderConformanceMarkdown } from '../../report-builder/markdown/conformance.js'
import { buildRunRecord } from '../../core/build-run-record.js'
import { buildReport, type EvalReport } from '../../report-builder/build.js'
import { renderHtmlReport } from '../../report-builder/html/index.js'
import { projectCommit } from '../../report-builder/reproducibility.js'
import type { RunRecord } from '../../core/run-record.js'
import { writeFileAtomic } from '../../files/write-atomic.js'
import { parseIntegerFlag, parseNumberFlag, PROVIDER_FLAGS } from '../flags.js'
import { type Command, shownPath } from '../io.js'
import { checkProviderFlags } from '../llm-flags.js'
import { readJsonFile, readSamples } from '../read-samples.js'
import { terminalText } from '../../core/escape-text.js'

const CONFORMANCE_HELP = `Usage: dataforge-evals conformance --samples s.jsonl|s.csv --spec spec.json [options]

Did generated samples follow the requested distributions and rules? Classifies every sample for every
property of the spec, scores conformance 0-100 (per property 100 × (1 − total variation distance),
weighted by samples analyzed, times the rules pass rate), tests goodness of fit (exact multinomial up to
10⁶ outcomes, else χ²) and writes a Markdown, a JSON and a self-contained HTML report.
--output c.md names the HTML too: c.html beside it (--output-html moves it).

Spec: { "properties": [{ "name": "sentiment", "distribution": { "positive": 40, "negative": 30, "neutral": 30 },
        "planField": "requested_sentiment" }], "rules": { "required": ["text"], "fields": { "rating": { "type": "integer", "min": 1, "max": 5 } } } }

Options:
  --samples FILE         generated samples: JSONL (one object a line) or CSV (header line)
  --spec FILE            the request (JSON, as above)
  --classifier C         field:NAME (read the label from a field) or agent:ID (a provider agent, e.g. groq-llama-70b);
                         PROPERTY=C for one property, repeatable (--classifier topic=field:topic --classifier
                         sentiment=field:label). A bare field:NAME serves a spec of one property only; a bare
                         agent:ID labels every property. Default: each property's own field
  --model M              model id for agent: classifiers
  --base-url URL         base URL for agent:openai-compatible
  --api-key-env VAR      environment variable holding the API key
  --cache MODE           off | record | replay | auto (default $DATAFORGE_CACHE or off)
  --cache-dir DIR        record/replay folder (default $DATAFORGE_CACHE_DIR or .dataforge-cache)
  --prices FILE          price map for cost: USD per token by model id (docs/gateway.md#prices)
  --concurrency N        model classifications in flight at once (default 4)
  --text-field F         show the model only this field of each sample (default the whole sample minus plan fields)
  --min-score X          exit 1 when the score is below X (0-100)
  --alpha A              exit 1 when a property departs from the request with p < A
  --agent NAME           the generator's name on the run record (default generator)
  --output FILE          Markdown report (default: printed to stdout)
  --output-json FILE     the evaluation as JSON, with its run record
  --output-html FILE     self-contained HTML report with the conformance section (default NAME.html beside --output)

Exit codes: 0 evaluated (and the bars met), 1 the evaluation FAILED or a bar was missed, 2 bad input.
`

const OPTIONS = {
  ...PROVIDER_FLAGS,
  samples: { type: 'string' },
  spec: { type: 'string' },
  classifier: { type: 'string', multiple: true },
  'text-field': { type: 'string' },
  'min-score': { type: 'string' },
  alpha: { type: 'string' },
  agent: { type: 'string' },
  output: { type: 'string' },
  'output-json': { type: 'string' },
  'output-html': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

export const conformanceCommand: Command = async (argv, io) => {
  const { values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true })
  if (values.help) {
    io.stdout(CONFORMANCE_HELP)
    return 0
  }
  if (!values.samples) throw new InputError('conformance: --samples is required (a .jsonl or .csv file)')
  if (!values.spec) throw new InputError('conformance: --spec is required (a JSON file)')
  const minScore =
    values['min-score'] === undefined
      ? undefined
      : parseNumberFlag('min-score', values['min-score'], 0, { min: 0, max: 100 })
  const alpha =
    values.alpha === undefined
      ? undefined
      : parseNumberFlag('alpha', values.alpha, 0.05, { min: 0, max: 1, exclusiveMin: true })
  if (alpha !== undefined && alpha >= 1) throw new InputError(`--alpha must be < 1, got ${values.alpha}`)
  const concurrency = parseIntegerFlag('concurrency', values.concurrency, 4, { min: 1 })
  await checkProviderFlags(values, io)
  const rawSpec = await readJsonFile(resolve(io.cwd, values.spec), values.spec)
  const spec = resolveSpec(rawSpec, values.spec)
  const samples = await readSamples(resolve(io.cwd, values.samples), values.samples)
  if (samples.length === 0) throw new InputError(`${values.samples}: no samples; there is nothing to evaluate`)

  // Outputs are checked before the first model call, so a bad path costs no quota.
  const planned = plannedOutputs(io.cwd, values)
  for (const [flag, path] of planned) await checkOutputPath(path, flag)
  const clients: ChatClient[] = []
  const openClassifier = (text: string): Classifier => {
    if (/^field:.+/.test(text)) return text as Classifier
    const agent = /^agent:(.+)$/.exec(text)?.[1]
    if (!agent) throw new InputError(`--classifier: expected field:NAME or agent:ID, got "${text}"`)
    const client = createChatClient(agent, {
      ...(values.model ? { model: values.model } : {}),
      ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
      ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}),
      ...(values.prices ? { prices: resolve(io.cwd, values.prices) } : {}),
      env: io.env,
      envFile: resolve(io.cwd, '.env'),
      cwd: io.cwd,
      cache: resolveCacheOptions(io.env, { cache: values.cache, cacheDir: values['cache-dir'] }, io.cwd),
      log: (line: string) => io.stderr(`${line}\n`),
    })
    clients.push(client)
    return modelClassifier(client, {
      concurrency,
      caseId: basename(values.samples!),
      ...(values['text-field'] ? { textField: values['text-field'] } : {}),
    })
  }
  const classify = classifierOption(
    values.classifier ?? [],
    spec.properties.map((p) => p.name),
    openClassifier,
  )

  const runDateUtc = new Date().toISOString()
  const project = projectCommit(io.cwd)
  let result: ConformanceEvaluation
  try {
    result = await evaluateConformance(samples, rawSpec, {
      ...(classify ? { classify } : {}),
      ...(alpha !== undefined ? { alpha } : {}),
      specSource: values.spec,
      samplesSource: values.samples,
      onStatus: (status) => io.stderr(`conformance: ${status}\n`),
    })
  } finally {
    await Promise.all(clients.map((c) => c.close()))
  }
  const verdict = conformanceVerdict(result, { minScore: minScore ?? 0, ...(alpha !== undefined ? { alpha } : {}) })
  const record = buildRunRecord(
    {
      caseId: basename(values.samples),
      suite: 'conformance',
      dataset: basename(values.samples),
      agent: values.agent ?? 'generator',
      model: clients[0]?.model ?? null,
      provider: clients[0]?.provider ?? null,
      trial: 0,
      seed: 0,
    },
    {
      ...(result.status === 'FAILED'
        ? {
            status: 'failed' as const,
            failureKind: clients.length ? ('provider_error' as const) : ('exception' as const),
            failureMessage: result.errorMessage,
          }
        : { status: 'ok' as const, correct: verdict.passed, validationError: verdict.reasons.join('; ') || null }),
      metrics: conformanceMetrics(result),
      runtimeS: result.durationSeconds,
      ...(result.usage ? { usage: result.usage } : {}),
    },
    { projectCommit: project.commit, runDateUtc },
  )
  const markdown = renderConformanceMarkdown(result)
  const outputs: Array<[string, string]> = []
  for (const [flag, path] of planned) {
    if (flag === '--output') outputs.push([path, markdown])
    if (flag === '--output-json') outputs.push([path, `${JSON.stringify({ ...result, runRecord: record }, null, 2)}\n`])
    if (flag === '--output-html') {
      // The run record is kept only in the --output-json file, when there is one.
      const recordFiles = planned.filter(([f]) => f === '--output-json').map(([, p]) => basename(p))
      const report = htmlReportOf(record, { cwd: io.cwd, runDateUtc, project, spec: values.spec })
      outputs.push([
        path,
        await renderHtmlReport(report, { title: `Conformance of ${basename(values.samples)}`, recordFiles }),
      ])
    }
  }
  for (const [path, text] of outputs) await writeFileAtomic(path, text)
  if (!values.output) io.stdout(markdown)
  // A FAILED evaluation scored nothing (fail closed, as every door): its summary already says why, once.
  const reasons = result.status === 'FAILED' ? [] : verdict.reasons
  io.stdout(
    `${verdict.passed ? 'ok' : 'FAIL'}: ${terminalText(verdict.summary)}${reasons.length ? ` (${terminalText(reasons.join('; '))})` : ''}` +
      `${outputs.length ? `; wrote ${outputs.map(([p]) => shownPath(io.cwd, p)).join(', ')}` : ''}\n`,
  )
  return verdict.passed ? 0 : 1
}

/** `--classifier C` for every property, or `--classifier PROPERTY=C` per property (repeatable). */
function classifierOption(
  given: readonly string[],
  properties: readonly string[],
  open: (text: string) => Classifier,
): Classifier | Record<string, Classifier> | undefined {
  if (given.length === 0) return undefined
  const perProperty: Record<string, Classifier> = {}
  let shared: Classifier | undefined
  for (const text of given) {
    const m = /^([^=:]+)=(.+)$/.exec(text)
    if (!m) {
      if (shared !== undefined || given.length > 1)
        throw new InputError('--classifier: name the property (PROPERTY=field:NAME) when giving more than one')
      shared = open(text)
      const problem = sharedFieldProblem(shared, properties)
      if (problem)
        throw new InputError(
          `--classifier ${problem}; give one per property (${properties.map((p) => `--classifier ${p}=field:…`).join(' ')}) or none (each property reads its own field)`,
        )
      continue
    }
    const [, property, rest] = m
    if (!properties.includes(property!)) {
      throw new InputError(
        `--classifier: unknown property "${property}"; the spec has ${properties.map((p) => `"${p}"`).join(', ')}`,
      )
    }
    perProperty[property!] = open(rest!)
  }
  return shared ?? perProperty
}

type OutputFlag = '--output' | '--output-json' | '--output-html'

/**
 * The files the command writes, by flag: `--output c.md` names the page too (c.html beside it), as for run
 * and qa; `--output-html` puts it elsewhere. Two flags naming one file are an input error.
 */
function plannedOutputs(
  cwd: string,
  flags: { output?: string | undefined; 'output-json'?: string | undefined; 'output-html'?: string | undefined },
): Array<[OutputFlag, string]> {
  const planned: Array<[OutputFlag, string]> = []
  if (flags.output !== undefined) planned.push(['--output', resolve(cwd, flags.output)])
  if (flags['output-json'] !== undefined) planned.push(['--output-json', resolve(cwd, flags['output-json'])])
  if (flags['output-html'] !== undefined) planned.push(['--output-html', resolve(cwd, flags['output-html'])])
  else if (flags.output !== undefined) {
    const markdown = resolve(cwd, flags.output)
    planned.push(['--output-html', join(dirname(markdown), `${basename(markdown, extname(markdown))}.html`)])
  }
  for (const [i, [flag, path]] of planned.entries()) {
    const other = planned.slice(0, i).find(([, p]) => p === path)
    if (other) throw new InputError(`${flag} and ${other[0]} are the same file (${path}); give each its own path`)
  }
  return planned
}

/** The report model the HTML renderer takes, over the command's one run record. */
function htmlReportOf(
  record: RunRecord,
  context: { cwd: string; runDateUtc: string; project: { commit: string | null; dirty: boolean | null }; spec: string },
): EvalReport {
  return buildReport({
    records: [record],
    datasets: [],
    cwd: context.cwd,
    runDateUtc: context.runDateUtc,
    project: context.project,
    config: {
      command: 'conformance',
      spec: context.spec,
      scoreRule: 'a conformance run is correct when its evaluation succeeded and met --min-score and --alpha',
    },
  })
}

async function checkOutputPath(path: string, flag: string): Promise<void> {
  const existing = await stat(path).catch(() => null)
  if (existing?.isDirectory()) throw new InputError(`${flag}: ${path} is a folder; give a file path`)
  try {
    await mkdir(dirname(path), { recursive: true })
  } catch (error) {
    throw new InputError(
      `${flag}: cannot create the folder ${dirname(path)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    )
  }
}
