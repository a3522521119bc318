import { formatRand } from '@events/pricing'
import { sql, type Kysely, type Transaction } from 'kysely'
import { bankDetailRows, type SiteSettingsForMail } from '../catalog.ts'
import type { Database } from '../db/database.ts'
import type { PaymentReminderKind } from '../db/tables/payment-reminders.ts'
import type { SponsorshipDealRow } from '../db/tables/sponsorship-deals.ts'
import { newId } from '../ids.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { dueDateOf, REMINDER_CLOSING, reminderDay, reminderFooter, type SentReminder } from '../invoice/reminder-schedule.ts'
import { formatDate } from '../mail/dates.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { dealPaymentState } from './deal-payments.ts'

/** The outbox topic of a deal's payment reminder. */
const DEAL_REMINDER_TOPIC = 'sponsorship-payment-reminder'

/** An approved deal with money owed on its tax invoice, as of a business day. */
export interface DealReceivable {
  deal: SponsorshipDealRow
  invoice: { number: string; issuedOn: string; pdfBase64: string }
  /** The invoice date plus the payment terms, YYYY-MM-DD. */
  dueOn: string
  /** Days past the due date on the business day asked about; 0 or less while not yet due. */
  daysOverdue: number
  outstandingCents: number
  paidCents: number
}

/**
 * Every approved deal whose tax invoice is not paid in full, with its due date and how far past it `today`
 * (YYYY-MM-DD) is. A cancelled deal's invoice is credited and owes nothing; a paid one is left out. Unlike a
 * registration, a sponsor's debt stays after the event: the deal stays here until it is paid or cancelled.
 */
export async function dealReceivablesOn(
  queries: Kysely<Database>,
  settings: SiteSettingsForMail,
  today: string,
  onlyDealId?: string,
): Promise<DealReceivable[]> {
  let deals = queries
    .selectFrom('sponsorship_deals')
    .innerJoin('sponsorship_invoices', 'sponsorship_invoices.deal_id', 'sponsorship_deals.id')
    .selectAll('sponsorship_deals')
    .select(['sponsorship_invoices.number as invoice_number', 'sponsorship_invoices.issued_at as invoice_issued_at', 'sponsorship_invoices.pdf_base64'])
    .where('sponsorship_deals.status', '=', 'approved')
    .where('sponsorship_deals.paid_at', 'is', null)
  if (onlyDealId !== undefined) deals = deals.where('sponsorship_deals.id', '=', onlyDealId)
  const rows = await deals.orderBy('sponsorship_deals.recorded_at').execute()
  const receivables: DealReceivable[] = []
  for (const { invoice_number, invoice_issued_at, pdf_base64, ...deal } of rows) {
    const payment = await dealPaymentState(queries, deal)
    if (payment.outstandingCents <= 0) continue
    const { issuedOn, dueOn, daysOverdue } = dueDateOf(invoice_issued_at, settings, today)
    receivables.push({
      deal,
      invoice: { number: formatInvoiceNumber(Number(invoice_number)), issuedOn, pdfBase64: pdf_base64 },
      dueOn,
      daysOverdue,
      outstandingCents: payment.outstandingCents,
      paidCents: payment.paidCents,
    })
  }
  return receivables
}

/** The reminders a deal was sent, oldest first. */
export async function dealRemindersOf(
  queries: Kysely<Database>,
  dealId: string,
): Promise<Array<SentReminder & { outstandingCents: number; sentByName: string | null }>> {
  const rows = await queries
    .selectFrom('sponsorship_payment_reminders')
    .select(['kind', 'business_day', 'outstanding_cents', 'sent_by_name'])
    .where('deal_id', '=', dealId)
    .orderBy('created_at')
    .execute()
  return rows.map((row) => ({ kind: row.kind, businessDay: row.business_day, outstandingCents: row.outstanding_cents, sentByName: row.sent_by_name }))
}

/** The sponsor's payment reminder, to the deal's contact: what is owed on which invoice since when, and how to pay it. */
function dealReminderMail(receivable: DealReceivable, kind: PaymentReminderKind, settings: SiteSettingsForMail): OutgoingMail {
  const { deal, invoice } = receivable
  const owed = formatRand(receivable.outstandingCents)
  const subject = `Payment reminder: ${owed} owed for sponsorship ${deal.reference}`
  const dueDate = formatDate(reminderDay(receivable.dueOn).toJSDate())
  const when =
    kind === 'before-event'
      ? `Dear ${deal.contact_name}, ${deal.event_title} starts in a week, and the tax invoice for your ${deal.package_title} sponsorship is still not paid in full.`
      : `Dear ${deal.contact_name}, our tax invoice ${invoice.number} for your ${deal.package_title} sponsorship of ${deal.event_title} was due for payment on ${dueDate} (${settings.paymentTermsDays} days from the invoice date) and is not yet paid in full.`
  const rows: Array<[string, string]> = [
    ['Reference', deal.reference],
    ...(deal.purchase_order_number ? ([['Your reference', deal.purchase_order_number]] as Array<[string, string]>) : []),
    ['Company', deal.company_name],
    ['Sponsorship', `${deal.package_title}, ${deal.event_title}`],
    ['Tax invoice', `${invoice.number}, issued ${formatDate(reminderDay(invoice.issuedOn).toJSDate())} (attached)`],
    ['Payment due', dueDate],
    ...(receivable.paidCents > 0 ? ([['Received so far', formatRand(receivable.paidCents)]] as Array<[string, string]>) : []),
    ['Amount owed', owed],
  ]
  const bankRows: Array<[string, string]> = [...bankDetailRows(settings.bankDetails, deal.reference), ['Amount', owed]]
  const howToPay = `Please pay by bank transfer with ${deal.reference} as the payment reference.`
  // A deal whose codes wait for the payment says so: the reminder is also what stands between the sponsor and its seats.
  const codes =
    deal.send_codes_when === 'paid' && deal.codes_sent_at === null
      ? ['Your codes for complimentary seats and your participants’ discount follow by e-mail once the invoice is paid.']
      : []
  return {
    to: [deal.contact_email],
    subject,
    text: [when, detailsText(rows), howToPay, detailsText(bankRows), ...codes, REMINDER_CLOSING].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>${when}</p>${detailsTable(rows)}<p>${howToPay}</p>${detailsTable(bankRows)}${codes.map((line) => html`<p>${line}</p>`)}<p>${REMINDER_CLOSING}</p>`,
      reminderFooter(settings),
    ),
    attachments: [{ filename: `tax-invoice-${invoice.number}.pdf`, contentType: 'application/pdf', content: invoice.pdfBase64, encoding: 'base64' }],
  }
}

/** Records a deal's reminder and queues its e-mail in the caller's transaction; false when an automatic one of its kind was already sent. */
export async function queueDealReminder(
  transaction: Transaction<Database>,
  reminder: { receivable: DealReceivable; kind: PaymentReminderKind; settings: SiteSettingsForMail; today: string; at: Date; sentByName: string | null },
): Promise<boolean> {
  const { receivable, kind } = reminder
  const recorded = await transaction
    .insertInto('sponsorship_payment_reminders')
    .values({
      id: newId(),
      deal_id: receivable.deal.id,
      kind,
      outstanding_cents: receivable.outstandingCents,
      business_day: reminder.today,
      sent_by_name: reminder.sentByName,
      created_at: reminder.at.toISOString(),
    })
    .onConflict((conflict) =>
      conflict
        .columns(['deal_id', 'kind'])
        .where(sql<boolean>`kind <> 'staff'`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst()
  if (!recorded) return false
  await enqueueMails(
    transaction,
    receivable.deal.id,
    [{ topic: DEAL_REMINDER_TOPIC, mail: dealReminderMail(receivable, kind, reminder.settings) }],
    reminder.at,
  )
  return true
}

/** A contact erased at their request (erasePersonalData) has no address to remind. */
export function dealContactErased(deal: Pick<SponsorshipDealRow, 'contact_email'>): boolean {
  return deal.contact_email === ''
}
