import { timingSafeEqual } from 'node:crypto'
import { formatAmount } from '@events/pricing'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { sha256Hex } from '../ids.ts'
import { creditNoteDownload, formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import { issuedInvoiceDownload, issuedInvoicesOf } from '../invoice/issued-invoices.ts'
import { storedEventOf, type InvoiceDownload, type RegistrationContext, type RegistrationDetails } from './model.ts'
import { paymentStateOf } from './payment-state.ts'
import { normaliseReference } from './reference.ts'
import { discountUsedBy } from '../discounts/codes.ts'

/** Compares a registration's secret with one from a URL in constant time. */
export function sameSecret(expected: string, given: string): boolean {
  // Compare digests so the comparison takes the same time whatever the lengths.
  return timingSafeEqual(Buffer.from(sha256Hex(expected), 'hex'), Buffer.from(sha256Hex(given), 'hex'))
}

/** The registration a private link names: its reference (in any case or spacing) and the secret that matches it. */
export async function findRegistrationByReferenceAndSecret(
  queries: Kysely<Database>,
  referenceInput: string,
  secret: string,
): Promise<RegistrationRow | undefined> {
  const reference = normaliseReference(String(referenceInput))
  if (!reference || typeof secret !== 'string' || secret === '') return undefined
  const row = await queries.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirst()
  return row && sameSecret(row.secret, secret) ? row : undefined
}

/** A registration by its id, for a payment record (a checkout) that points at it. */
export async function findRegistrationById(queries: Kysely<Database>, registrationId: string): Promise<RegistrationRow | undefined> {
  return queries.selectFrom('registrations').selectAll().where('id', '=', registrationId).executeTakeFirst()
}

/** Everything the registrant's private status page shows, for the holder of its link. */
export async function getRegistrationByReferenceAndSecret(
  context: Pick<RegistrationContext, 'db'>,
  referenceInput: string,
  secret: string,
): Promise<RegistrationDetails | undefined> {
  const { db } = context
  const row = await findRegistrationByReferenceAndSecret(db.kysely, referenceInput, secret)
  if (!row) return undefined
  const invoices = (await issuedInvoicesOf(db.kysely, [row.id])).get(row.id) ?? []
  const invoice = invoices.at(-1)
  const creditNotes = await db.kysely.selectFrom('credit_notes').select('number').where('registration_id', '=', row.id).orderBy('number').execute()
  const delegates = (
    await db.kysely
      .selectFrom('registration_delegates')
      .select(['name', 'position', 'email', 'attendance', 'professional_registration_number'])
      .where('registration_id', '=', row.id)
      .orderBy('ordinal')
      .execute()
  ).map(({ professional_registration_number: number, ...delegate }) => (number === null ? delegate : { ...delegate, professionalRegistrationNumber: number }))
  const payment = await paymentStateOf(db.kysely, row)
  const discount = await discountUsedBy(db.kysely, row.id)
  return {
    reference: row.reference,
    secret: row.secret,
    status: row.status,
    event: storedEventOf(row),
    code: row.submitted_code,
    companyName: row.company_name,
    address: row.address,
    email: row.email,
    tel: row.tel,
    vatNumber: row.vat_number,
    purchaseOrderNumber: row.purchase_order_number,
    attendanceOption: { key: row.attendance_option, label: row.attendance_option_label },
    paymentMethod: row.payment_method,
    delegates,
    subtotalCents: row.subtotal_cents,
    vatCents: row.vat_cents,
    totalCents: row.total_cents,
    total: formatAmount(row.total_cents),
    paidCents: payment.paidCents,
    outstandingCents: payment.outstandingCents,
    currency: row.currency,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    ...(invoice ? { invoice: { number: invoice.number } } : {}),
    invoices,
    creditNotes: creditNotes.map((note) => ({ number: formatCreditNoteNumber(Number(note.number)) })),
    cancelledAt: row.cancelled_at,
    ...(discount ? { discount } : {}),
  }
}

/**
 * One of the registration's tax invoices as a PDF (by its number, INV-000001; the current one without), for the holder
 * of its private link: a replaced invoice stays downloadable as it was issued.
 */
export async function getInvoicePdf(
  context: Pick<RegistrationContext, 'db'>,
  referenceInput: string,
  secret: string,
  invoiceNumber?: string,
): Promise<InvoiceDownload | undefined> {
  const { db } = context
  const row = await findRegistrationByReferenceAndSecret(db.kysely, referenceInput, secret)
  return row ? issuedInvoiceDownload(db, row.id, invoiceNumber) : undefined
}

/** One of the registration's credit notes (by its number, CN-000001), for the holder of its private link. */
export async function getCreditNotePdf(
  context: Pick<RegistrationContext, 'db'>,
  referenceInput: string,
  secret: string,
  creditNoteNumber: string,
): Promise<InvoiceDownload | undefined> {
  const { db } = context
  const row = await findRegistrationByReferenceAndSecret(db.kysely, referenceInput, secret)
  return row ? creditNoteDownload(db, row.id, creditNoteNumber) : undefined
}
