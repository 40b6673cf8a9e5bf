const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and quoted attribute values. */
export function esc(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

/** Escapes text written with Markdown's inline code (`like this`) and shows that code as <code>. */
export function escWithCode(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

/** A `data-value` attribute holding a sortable number (empty for missing values, which sort last). */
export function sortValue(value: number | null | undefined): string {
  return ` data-value="${value === null || value === undefined || Number.isNaN(value) ? '' : String(value)}"`
}

/** Anchor-safe id from free text. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'x'
  )
}
