import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type CachedScript, compileCached, packageCacheDir } from './code-cache.js'
import type { TopLevelSpec } from 'vega-lite'

type VegaModule = typeof import('vega')
type VegaLiteModule = typeof import('vega-lite')

let loaded: Promise<{ vega: VegaModule; vl: VegaLiteModule }> | undefined
/** The two builds' compiled code, kept for the next process once a chart was drawn. */
const scripts: CachedScript[] = []

/** Vega and Vega-Lite are loaded on first use, so runs that write no HTML never pay for them. */
export function loadVega(): Promise<{ vega: VegaModule; vl: VegaLiteModule }> {
  loaded ??= Promise.resolve().then(() => {
    const vega = singleFileBuild('vega', 'vega.js', {}) as VegaModule
    return { vega, vl: singleFileBuild('vega-lite', 'vega-lite.min.js', { vega }) as VegaLiteModule }
  })
  return loaded
}

/**
 * A package's single-file build (UMD, beside its ES module entry in `build/`, the same release), run as
 * CommonJS with `require` answered from `deps`, its compiled code cached in `node_modules/.cache`
 * (`code-cache.ts`). Node loads Vega's and Vega-Lite's ES module entries as some 70 files, which took 2.5 times
 * the CPU of these two (about 190 against 75 ms, once per run writing HTML). They sit in `"type": "module"`
 * packages, where Node would take them for ES modules, hence the explicit wrapper.
 */
function singleFileBuild(name: string, file: string, deps: Record<string, unknown>): unknown {
  const path = join(dirname(createRequire(import.meta.url).resolve(name)), file)
  const script = compileCached(path, packageCacheDir(path))
  scripts.push(script)
  // Not named `module` and `require`: in the CommonJS build those are this file's own.
  const umd = { exports: {} as Record<string, unknown> }
  script.run(umd.exports, umd, (id: string) => {
    if (id in deps) return deps[id]
    throw new Error(`${path} requires ${id}, which the report's charts do not provide`)
  })
  return umd.exports
}

/** Shared look: system fonts only (no web font is ever fetched), quiet axes, the page's text colour. */
export const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  background: '#ffffff',
  view: { stroke: null },
  axis: {
    labelColor: '#333',
    titleColor: '#333',
    gridColor: '#e6e6e6',
    domainColor: '#999',
    tickColor: '#999',
    labelLimit: 420,
  },
  legend: { labelLimit: 420, orient: 'bottom', columns: 2 },
  range: { category: { scheme: 'tableau10' } },
} as const

/** The name of a chart's data in its compiled form: the values are set on each view, not compiled in. */
const CHART_DATA = 'values'
/** Compiled charts kept (`chartRuntime`); a long watch session drawing ever new charts starts over past this. */
const MAX_RUNTIMES = 64
const runtimes = new Map<string, ReturnType<VegaModule['parse']>>()

/**
 * A chart compiled by Vega-Lite and parsed by Vega, without its data and its description: those are set on each
 * view. The same chart with other values (the Score chart of each suite, of every run in watch mode) is compiled
 * once per process, which is most of a small chart's cost.
 */
function chartRuntime(
  { vega, vl }: { vega: VegaModule; vl: VegaLiteModule },
  spec: TopLevelSpec,
  width: number,
): ReturnType<VegaModule['parse']> {
  const { data: _data, description: _description, ...form } = spec as TopLevelSpec & { data?: unknown }
  const key = JSON.stringify([form, width])
  let runtime = runtimes.get(key)
  if (!runtime) {
    const compiled = vl.compile({
      ...form,
      data: { name: CHART_DATA },
      width,
      config: { ...CHART_CONFIG, ...(spec.config ?? {}) },
    } as TopLevelSpec).spec
    // The spec's width is the whole chart's, axes and legends included. Set on the Vega spec: Vega-Lite warns
    // about fitting when the height is counted in steps, as most of these charts' heights are.
    compiled.autosize = { type: 'fit-x', contains: 'padding' }
    runtime = vega.parse(compiled)
    if (runtimes.size >= MAX_RUNTIMES) runtimes.clear()
    runtimes.set(key, runtime)
  }
  return runtime
}

/** The inline values a chart's spec carries: the only data a report's chart may have. */
function chartValues(spec: TopLevelSpec): unknown[] {
  const data = (spec as { data?: { values?: unknown } }).data
  if (!data || !Array.isArray(data.values)) throw new Error('a report chart carries its data inline, as `data.values`')
  return data.values
}

/**
 * Compiles a Vega-Lite spec with Vega-Lite (once per form: `chartRuntime`), runs it with Vega's headless view
 * and returns the SVG markup of each drawing: one per width (`spec.width` replaced), each with its ids scoped by
 * its own id. Nothing is drawn by hand: every mark, axis and legend comes from Vega. One view draws every width
 * (the width is a signal: the same drawing as a view made for that width, at about half the cost). Data must be
 * inline (`data.values`), and the loader is replaced by one that refuses any URL, so building a report never
 * touches the network.
 */
export async function renderVegaLiteSvgs(
  spec: TopLevelSpec,
  drawings: ReadonlyArray<{ width: number; id: string }>,
): Promise<string[]> {
  const modules = await loadVega()
  const first = drawings[0]
  if (!first) return []
  const values = chartValues(spec)
  const loader = modules.vega.loader()
  loader.load = async (uri: string) => {
    throw new Error(`report charts use inline data only; refused to load ${uri}`)
  }
  const view = new modules.vega.View(chartRuntime(modules, spec, first.width), { renderer: 'none', loader })
  view.data(CHART_DATA, values)
  if (spec.description !== undefined) view.description(spec.description)
  try {
    const svgs: string[] = []
    for (const { width, id } of drawings) {
      if (width !== first.width) view.width(width)
      svgs.push(scopeIds(await view.toSVG(), id))
    }
    return svgs
  } finally {
    view.finalize()
    // After a drawing the cache holds the code that drawing compiled, not only the top level.
    for (const script of scripts) script.save()
  }
}

/**
 * Vega numbers clip paths and gradients with a process-wide counter, so the same chart gets other ids in
 * another build and two charts in one page could share one. Each chart's ids are renumbered from its own id
 * in order of appearance: unique in the page, and the same bytes for the same report.
 */
function scopeIds(svg: string, id: string): string {
  const renamed = new Map<string, string>()
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) if (!renamed.has(m[1]!)) renamed.set(m[1]!, `${id}-${renamed.size}`)
  if (renamed.size === 0) return svg
  return svg.replace(/(id="|url\(#|href="#)([^")]+)/g, (whole, lead: string, old: string) => {
    const scoped = renamed.get(old)
    return scoped ? `${lead}${scoped}` : whole
  })
}
