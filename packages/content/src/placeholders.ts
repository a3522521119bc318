/** The fields of a document that placeholder reporting reads; any Sanity document fits. */
export interface PlaceholderSource {
  _id: string
  _type: string
  placeholders?: unknown
  title?: unknown
  name?: unknown
  siteName?: unknown
}

/** One document that still holds invented values, and which of its fields they are. */
export interface PlaceholderEntry {
  documentId: string
  type: string
  title: string
  fields: string[]
}

/** GROQ for the fields `listPlaceholders` needs, for fetching from a hosted dataset. */
export const PLACEHOLDERS_QUERY = `*[count(placeholders) > 0]{ _id, _type, placeholders, title, name, siteName }`

// Drafts ("drafts.x") and release versions ("versions.r.x") are not what visitors see; their published
// documents are reported instead.
function isPublishedId(id: string): boolean {
  return !id.includes('.')
}

function displayTitle(document: PlaceholderSource): string {
  for (const candidate of [document.title, document.name, document.siteName]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate
  }
  return document._id
}

/** The published documents whose `placeholders` list is not empty, sorted by type and id. */
export function listPlaceholders(documents: Iterable<PlaceholderSource>): PlaceholderEntry[] {
  const entries: PlaceholderEntry[] = []
  for (const document of documents) {
    if (!isPublishedId(document._id) || !Array.isArray(document.placeholders)) continue
    const fields = document.placeholders.filter((field): field is string => typeof field === 'string' && field !== '')
    if (fields.length === 0) continue
    entries.push({ documentId: document._id, type: document._type, title: displayTitle(document), fields })
  }
  return entries.sort((a, b) => a.type.localeCompare(b.type) || a.documentId.localeCompare(b.documentId))
}

/** A plain-text report of the remaining placeholders for startup and build logs. */
export function formatPlaceholderReport(entries: readonly PlaceholderEntry[]): string {
  if (entries.length === 0) return 'Content: no placeholder values remain.'
  const fieldCount = entries.reduce((sum, entry) => sum + entry.fields.length, 0)
  const lines = entries.map((entry) => `  - ${entry.type} "${entry.title}" (${entry.documentId}): ${entry.fields.join(', ')}`)
  return [
    `Content: ${fieldCount} placeholder values remain in ${entries.length} documents. Replace them in the studio and remove each entry from the document's "Placeholder fields":`,
    ...lines,
  ].join('\n')
}
