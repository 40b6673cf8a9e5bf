const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and quoted attribute values. */
export function esc(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

/** A `data-value` attribute holding a sortable number (empty for missing values, which sort last). */
export function sortValue(value: number | null | undefined): string {
  return ` data-value="${value === null || value === undefined || Number.isNaN(value) ? '' : String(value)}"`
}

/** Anchor-safe id from free text. */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'x'
}
