import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { ActingStaff } from './context.ts'

/** What a staff command's audit row says: what was done, to what, and the subject before and after. */
export interface CommandAuditEntry {
  /** A verb in kebab case, e.g. `statement-line-dismissed`. */
  action: string
  subjectType: string
  subjectId: string
  before?: unknown
  after?: unknown
}

/**
 * The staff member acting on a command, with the site's audit log writer: it writes the command's audit row in the
 * command's own transaction, so the change and its record commit together or not at all. The site binds it to the
 * signed-in member and the request's address; core does not depend on the staff package.
 */
export interface CommandStaff extends ActingStaff {
  audit?: ((transaction: Transaction<Database>, entry: CommandAuditEntry) => Promise<void>) | undefined
}

/** Writes a command's audit row through the acting member's writer, inside the command's transaction. */
export async function auditInTransaction(transaction: Transaction<Database>, staff: CommandStaff, entry: CommandAuditEntry): Promise<void> {
  await staff.audit?.(transaction, entry)
}
