import type { PlaceholderEntry } from '@events/content'

type InfoLogger = { info(fields: object, message: string): void; info(message: string): void }

/**
 * Logs the placeholder values that remain in the content as a table: a heading line, then one line per document with
 * its type, id and fields in aligned columns, so the list reads as a table in the raw JSON log (each message on its
 * own line) as through pino-pretty, and each row carries its document and fields for a log search.
 */
export function logPlaceholders(logger: InfoLogger, entries: readonly PlaceholderEntry[]): void {
  if (entries.length === 0) {
    logger.info('Content: no placeholder values remain.')
    return
  }
  const values = entries.reduce((sum, entry) => sum + entry.fields.length, 0)
  logger.info(
    { placeholderValues: values, placeholderDocuments: entries.length },
    `Content: ${values} placeholder values remain in ${entries.length} documents; replace them in the studio and remove each from the document's "Placeholder fields":`,
  )
  const typeWidth = Math.max(...entries.map((entry) => entry.type.length))
  const idWidth = Math.max(...entries.map((entry) => entry.documentId.length))
  for (const entry of entries) {
    logger.info(
      { placeholder: { document: entry.documentId, fields: entry.fields } },
      `  ${entry.type.padEnd(typeWidth)}  ${entry.documentId.padEnd(idWidth)}  ${entry.fields.join(', ')}`,
    )
  }
}
