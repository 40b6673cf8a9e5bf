import { createRequire } from 'node:module'

/** The mark types and encoding channels a spec may use, as the pinned Vega-Lite's own JSON schema defines them. */
export interface VegaLiteNames {
  marks: ReadonlySet<string>
  channels: ReadonlySet<string>
}

interface Definition {
  enum?: string[]
  const?: string
  anyOf?: { $ref?: string }[]
  properties?: Record<string, unknown>
}

let names: VegaLiteNames | undefined

/**
 * Read from `vega-lite/vega-lite-schema.json` on first use (1.9 MB, so not at import), never retyped: the
 * primitive marks (`Mark`), the composite ones (`CompositeMark`: boxplot, errorbar, errorband), and the channels
 * of a unit spec's encoding with the facet channels (`FacetedEncoding`: row, column, facet).
 */
export function vegaLiteNames(): VegaLiteNames {
  if (names) return names
  const schema = createRequire(import.meta.url)('vega-lite/vega-lite-schema.json') as {
    definitions: Record<string, Definition>
  }
  const definition = (name: string): Definition => {
    const found = schema.definitions[name]
    if (!found) throw new Error(`vega-lite-schema.json has no definition ${name}`)
    return found
  }
  const values = (name: string): string[] => {
    const d = definition(name)
    if (d.enum) return d.enum
    if (d.const !== undefined) return [d.const]
    return (d.anyOf ?? []).flatMap((ref) => (ref.$ref ? values(ref.$ref.replace('#/definitions/', '')) : []))
  }
  names = {
    marks: new Set([...values('Mark'), ...values('CompositeMark')]),
    channels: new Set(Object.keys(definition('FacetedEncoding').properties ?? {})),
  }
  return names
}
