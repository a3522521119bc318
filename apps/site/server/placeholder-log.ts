import type { PlaceholderEntry } from '@events/content'

type InfoLogger = { info(fields: object, message: string): void; info(message: string): void }

/**
 * Logs the placeholder values that remain in the content in one line: how many, in how many documents of each type,
 * and where the list is (the build prints it, as does `node scripts/placeholders.mjs`). The documents and their
 * fields ride along in the JSON for a log search.
 */
export function logPlaceholders(logger: InfoLogger, entries: readonly PlaceholderEntry[]): void {
  if (entries.length === 0) {
    logger.info('Content: no placeholder values remain.')
    return
  }
  const values = entries.reduce((sum, entry) => sum + entry.fields.length, 0)
  const perType = new Map<string, number>()
  for (const entry of entries) perType.set(entry.type, (perType.get(entry.type) ?? 0) + 1)
  const types = [...perType].map(([type, documents]) => `${documents} ${type}`).join(', ')
  logger.info(
    {
      placeholderValues: values,
      placeholderDocuments: entries.length,
      placeholders: entries.map((entry) => ({ document: entry.documentId, fields: entry.fields })),
    },
    `Content: ${values} placeholder values remain in ${entries.length} documents (${types}); replace them in the studio; node scripts/placeholders.mjs lists them`,
  )
}
