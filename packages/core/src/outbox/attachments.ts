import type { CoreDatabase } from '../db/database.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'

/**
 * Draws the content of the attachments of one kind that a queued message only names (a stored invoice's id, a
 * certificate's number, a pass's code), dropping the name: the outbox stores messages small and renders documents
 * when it sends them, outside the transaction that queued them.
 */
export type AttachmentRenderer = (db: CoreDatabase, mail: OutgoingMail) => Promise<OutgoingMail>

// Keyed by kind, so a module loaded twice (a test worker's shared module graph) registers its kind once.
const renderers = new Map<string, AttachmentRenderer>()

/**
 * Called by the module that makes attachments of a kind, when it loads: the outbox then renders that kind without
 * knowing it. Whoever can queue such an attachment has loaded the module that made it.
 */
export function registerAttachmentKind(kind: string, render: AttachmentRenderer): void {
  renderers.set(kind, render)
}

// What an attachment holds once rendered; any other field names a document still to draw.
const RENDERED_FIELDS = new Set(['filename', 'contentType', 'content', 'encoding', 'contentId'])

/** The message with every attachment drawn; refuses one naming a document of a kind no module registered. */
export async function withRenderedAttachments(db: CoreDatabase, mail: OutgoingMail): Promise<OutgoingMail> {
  let rendered = mail
  for (const render of renderers.values()) rendered = await render(db, rendered)
  for (const attachment of rendered.attachments ?? []) {
    const unknown = Object.entries(attachment)
      .filter(([field, value]) => value !== undefined && !RENDERED_FIELDS.has(field))
      .map(([field]) => field)
    if (unknown.length > 0) throw new Error(`Attachment ${attachment.filename} names a document no module renders (${unknown.join(', ')})`)
  }
  return rendered
}
