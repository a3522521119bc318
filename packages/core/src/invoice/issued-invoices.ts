import type { Kysely } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import { formatInvoiceNumber } from './invoice-number.ts'
import { invoiceFilename, renderStoredInvoice } from './issue-invoice.ts'

/** A tax invoice a registration was issued, and, once "Correct the invoice" replaced it, the invoice that did. */
export interface IssuedInvoice {
  number: string
  issuedAt: string
  replacedBy?: { number: string; issuedAt: string }
}

/**
 * Every tax invoice each registration was issued, oldest first: each but the newest replaced by the next (a
 * correction credits the invoice in full and issues the next one the same moment).
 */
export async function issuedInvoicesOf(queries: Kysely<Database>, registrationIds: readonly string[]): Promise<Map<string, IssuedInvoice[]>> {
  const byRegistration = new Map<string, IssuedInvoice[]>(registrationIds.map((id) => [id, []]))
  if (registrationIds.length === 0) return byRegistration
  const rows = await queries
    .selectFrom('invoices')
    .select(['registration_id', 'number', 'issued_at'])
    .where('registration_id', 'in', [...registrationIds])
    .orderBy('number')
    .execute()
  for (const row of rows) {
    const invoices = byRegistration.get(row.registration_id)!
    const invoice: IssuedInvoice = { number: formatInvoiceNumber(Number(row.number)), issuedAt: row.issued_at }
    const previous = invoices.at(-1)
    if (previous) previous.replacedBy = { number: invoice.number, issuedAt: invoice.issuedAt }
    invoices.push(invoice)
  }
  return byRegistration
}

/**
 * One of a registration's tax invoices as a download, by its printed number (INV-000001), or its newest without one:
 * the PDF as first stored, so a replaced invoice reads as it was issued.
 */
export async function issuedInvoiceDownload(
  db: CoreDatabase,
  registrationId: string,
  invoiceNumber?: string,
): Promise<{ filename: string; pdf: Buffer } | undefined> {
  const serial = invoiceNumber === undefined ? undefined : /^INV-(\d{6,})$/.exec(invoiceNumber)?.[1]
  if (invoiceNumber !== undefined && serial === undefined) return undefined
  const invoice = await db.kysely
    .selectFrom('invoices')
    .select(['id', 'number'])
    .where('registration_id', '=', registrationId)
    .$if(serial !== undefined, (query) => query.where('number', '=', Number(serial)))
    .orderBy('number', 'desc')
    .executeTakeFirst()
  const pdf = invoice ? await renderStoredInvoice(db, invoice.id) : undefined
  return invoice && pdf ? { filename: invoiceFilename(formatInvoiceNumber(Number(invoice.number))), pdf } : undefined
}
