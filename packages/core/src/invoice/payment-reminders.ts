import { formatRand } from '@events/pricing'
import { sql, type Kysely, type Transaction } from 'kysely'
import * as z from 'zod/mini'
import { bankDetailRows, type SiteSettingsForMail } from '../catalog.ts'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { dayIn, referenceField } from '../backoffice/fields.ts'
import type { Database } from '../db/database.ts'
import type { PaymentReminderKind } from '../db/tables/payment-reminders.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { newId } from '../ids.ts'
import { formatDate, formatEventDates } from '../mail/dates.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { startRecurringRound } from '../recurring-round.ts'
import { paysByCard, registrantAddressErased } from '../registration/model.ts'
import { paymentStateOf } from '../registration/payment-state.ts'
import { normaliseReference } from '../registration/reference.ts'
import { ownFields } from '../submissions/fields.ts'
import { dealContactErased, dealReceivablesOn, dealRemindersOf, queueDealReminder } from '../sponsorship/deal-reminders.ts'
import { ageBandOf, firstInvoicedOn, type AgeBand } from './ageing.ts'
import { formatInvoiceNumber } from './invoice-number.ts'
import { invoiceAttachment } from './issue-invoice.ts'
import { dueDateOf, REMINDER_CLOSING, reminderDay, reminderDue, reminderFooter } from './reminder-schedule.ts'

const PAYMENT_REMINDER_TOPIC = 'payment.reminder'

/** A registration with money owed on its current tax invoice, as of a business day. */
export interface Receivable {
  registration: RegistrationRow
  invoice: { id: string; number: string; issuedOn: string }
  /** The invoice date plus the payment terms, YYYY-MM-DD. */
  dueOn: string
  /** Days past the due date on the business day asked about; 0 or less while not yet due. */
  daysOverdue: number
  outstandingCents: number
  paidCents: number
}

/**
 * Every registration not cancelled as a whole whose current (latest) tax invoice is not paid in full, with its due date
 * and how far past it `today` (YYYY-MM-DD) is; events already over are left out, there is nothing left to remind about.
 */
export async function receivablesOn(
  queries: Kysely<Database>,
  settings: SiteSettingsForMail,
  today: string,
  now: Date,
  onlyRegistrationId?: string,
): Promise<Receivable[]> {
  let registrations = queries
    .selectFrom('registrations')
    .selectAll()
    .where('status', '<>', 'paid')
    .where('cancelled_at', 'is', null)
    .where('event_end', '>', now.toISOString())
  if (onlyRegistrationId !== undefined) registrations = registrations.where('id', '=', onlyRegistrationId)
  const rows = await registrations.orderBy('created_at').execute()
  const receivables: Receivable[] = []
  for (const registration of rows) {
    const invoice = await queries
      .selectFrom('invoices')
      .select(['id', 'number', 'issued_at'])
      .where('registration_id', '=', registration.id)
      .orderBy('number', 'desc')
      .executeTakeFirst()
    if (!invoice) continue
    const payment = await paymentStateOf(queries, registration)
    if (payment.outstandingCents <= 0) continue
    const { issuedOn, dueOn, daysOverdue } = dueDateOf(invoice.issued_at, settings, today)
    receivables.push({
      registration,
      invoice: { id: invoice.id, number: formatInvoiceNumber(Number(invoice.number)), issuedOn },
      dueOn,
      daysOverdue,
      outstandingCents: payment.outstandingCents,
      paidCents: payment.paidCents,
    })
  }
  return receivables
}

interface ReminderMailContext {
  receivable: Receivable
  kind: PaymentReminderKind
  settings: SiteSettingsForMail
  statusUrl: string
  paymentUrl: string | undefined
}

/** The registrant's payment reminder: what is owed on which invoice since when, and how to pay it. */
function paymentReminderMail({ receivable, kind, settings, statusUrl, paymentUrl }: ReminderMailContext): OutgoingMail {
  const { registration, invoice } = receivable
  const owed = formatRand(receivable.outstandingCents)
  const subject = `Payment reminder: ${owed} owed for registration ${registration.reference}`
  const dueDate = formatDate(reminderDay(receivable.dueOn).toJSDate())
  const when =
    kind === 'before-event'
      ? `${registration.event_title} starts in a week, and the tax invoice is still not paid in full.`
      : `Our tax invoice ${invoice.number} was due for payment on ${dueDate} (${settings.paymentTermsDays} days from the invoice date) and is not yet paid in full.`
  const rows: Array<[string, string]> = [
    ['Reference', registration.reference],
    ...(registration.purchase_order_number ? ([['Your reference', registration.purchase_order_number]] as Array<[string, string]>) : []),
    ['Company', registration.company_name],
    ['Event', registration.event_title],
    ['Dates', formatEventDates(registration.event_start, registration.event_end)],
    ['Tax invoice', `${invoice.number}, issued ${formatDate(reminderDay(invoice.issuedOn).toJSDate())} (attached)`],
    ['Payment due', dueDate],
    ...(receivable.paidCents > 0 ? ([['Received so far', formatRand(receivable.paidCents)]] as Array<[string, string]>) : []),
    ['Amount owed', owed],
  ]
  const bankRows: Array<[string, string]> = [...bankDetailRows(settings.bankDetails, registration.reference), ['Amount', owed]]
  const howToPay = paymentUrl
    ? `Pay by card on your registration's payment page, or by bank transfer with ${registration.reference} as the payment reference.`
    : `Please pay by bank transfer with ${registration.reference} as the payment reference.`
  return {
    to: [registration.email],
    subject,
    text:
      [
        when,
        detailsText(rows),
        howToPay,
        detailsText(bankRows),
        ...(paymentUrl ? [`Payment page:\n${paymentUrl}`] : []),
        `Your registration page:\n${statusUrl}`,
        REMINDER_CLOSING,
      ].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>${when}</p>${detailsTable(rows)}<p>${howToPay}</p>${detailsTable(bankRows)}${paymentUrl ? html`<p><a href="${paymentUrl}">Pay by card</a></p>` : html``}<p>Your registration page: <a href="${statusUrl}">${statusUrl}</a></p><p>${REMINDER_CLOSING}</p>`,
      reminderFooter(settings),
    ),
    attachments: [invoiceAttachment(invoice)],
  }
}

/** Records a reminder and queues its e-mail in the caller's transaction; false when an automatic one of its kind was already sent. */
async function queueReminder(
  context: BackOfficeContext,
  transaction: Transaction<Database>,
  reminder: { receivable: Receivable; kind: PaymentReminderKind; settings: SiteSettingsForMail; today: string; at: Date; sentByName: string | null },
): Promise<boolean> {
  const { receivable, kind } = reminder
  const recorded = await transaction
    .insertInto('payment_reminders')
    .values({
      id: newId(),
      registration_id: receivable.registration.id,
      kind,
      outstanding_cents: receivable.outstandingCents,
      business_day: reminder.today,
      sent_by_name: reminder.sentByName,
      created_at: reminder.at.toISOString(),
    })
    .onConflict((conflict) =>
      conflict
        .columns(['registration_id', 'kind'])
        .where(sql<boolean>`kind <> 'staff'`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst()
  if (!recorded) return false
  const { registration } = receivable
  const mail = paymentReminderMail({
    receivable,
    kind,
    settings: reminder.settings,
    statusUrl: context.links.registrationStatus(registration),
    paymentUrl: paysByCard(registration.payment_method) ? context.links.registrationPayment(registration) : undefined,
  })
  await enqueueMails(transaction, registration.id, [{ topic: PAYMENT_REMINDER_TOPIC, mail }], reminder.at)
  return true
}

async function remindersOf(queries: Kysely<Database>, registrationId: string): Promise<Array<{ kind: PaymentReminderKind; businessDay: string }>> {
  const rows = await queries.selectFrom('payment_reminders').select(['kind', 'business_day']).where('registration_id', '=', registrationId).execute()
  return rows.map((row) => ({ kind: row.kind, businessDay: row.business_day }))
}

/**
 * Queues the payment reminders due on the business day (SITE_DATE's clock): past the invoice's due date, then a week
 * before the event; each once per registration, however often this runs and on however many instances. Answers the
 * references reminded.
 */
export async function sendDuePaymentReminders(context: BackOfficeContext): Promise<Array<{ reference: string; kind: PaymentReminderKind }>> {
  const { db } = context
  const settings = await context.catalog.getSettings()
  const today = dayIn(businessClock(context))
  const at = wallClock(context)
  const sent: Array<{ reference: string; kind: PaymentReminderKind }> = []
  for (const receivable of await receivablesOn(db.kysely, settings, today, businessClock(context))) {
    if (registrantAddressErased(receivable.registration)) continue
    const debt = { daysOverdue: receivable.daysOverdue, eventStart: receivable.registration.event_start }
    const kind = reminderDue(debt, today, await remindersOf(db.kysely, receivable.registration.id))
    if (!kind) continue
    const queued = await db.writeTransaction((transaction) => queueReminder(context, transaction, { receivable, kind, settings, today, at, sentByName: null }))
    if (queued) sent.push({ reference: receivable.registration.reference, kind })
  }
  // Sponsorship deals' invoices in the same round, on the same schedule, to each deal's contact.
  for (const receivable of await dealReceivablesOn(db.kysely, settings, today)) {
    if (dealContactErased(receivable.deal)) continue
    const debt = { daysOverdue: receivable.daysOverdue, eventStart: receivable.deal.event_start }
    const kind = reminderDue(debt, today, await dealRemindersOf(db.kysely, receivable.deal.id))
    if (!kind) continue
    const queued = await db.writeTransaction((transaction) => queueDealReminder(transaction, { receivable, kind, settings, today, at, sentByName: null }))
    if (queued) sent.push({ reference: receivable.deal.reference, kind })
  }
  return sent
}

/** One row of the back office's Overdue list: a registration, or a sponsorship deal (by its reference). */
export interface OverdueRegistration {
  /** What owes the money: the reference is a registration's or a deal's. */
  payer: 'registration' | 'sponsorship-deal'
  /** The deal's id, for its page; undefined for a registration. */
  dealId?: string | undefined
  reference: string
  companyName: string
  contact: { email: string; tel: string }
  eventTitle: string
  invoiceNumber: string
  dueOn: string
  daysOverdue: number
  outstandingCents: number
  /** How old the debt is, from the registration's first tax invoice. */
  ageBand: AgeBand
  /** An early-bird registration not paid in full by the early-bird date: the terms say "register and pay by". */
  earlyBirdUnpaid: boolean
  earlyBirdUntil: string | null
  reminders: Array<{ kind: PaymentReminderKind; businessDay: string }>
}

/**
 * The registrations past their payment due date, most overdue first, and the early-bird ones unpaid after the
 * early-bird date (flagged; staff decide what to do), on the business day; with them the sponsorship deals whose
 * invoice is past its due date.
 */
export async function overdueRegistrations(context: BackOfficeContext): Promise<OverdueRegistration[]> {
  const { db, catalog } = context
  const settings = await catalog.getSettings()
  const now = businessClock(context)
  const today = dayIn(now)
  const rows: OverdueRegistration[] = []
  const receivables = await receivablesOn(db.kysely, settings, today, now)
  const invoicedOn = await firstInvoicedOn(
    db.kysely,
    receivables.map((receivable) => receivable.registration.id),
  )
  for (const receivable of receivables) {
    const { registration } = receivable
    let earlyBirdUntil: string | null = null
    if (registration.attendance_option === 'early-bird') {
      const event = await catalog.getEvent(registration.event_slug)
      earlyBirdUntil = event?.priceOptions.find((option) => option.key === 'early-bird')?.earlyBirdUntil ?? null
    }
    const earlyBirdUnpaid = earlyBirdUntil !== null && earlyBirdUntil < today
    if (receivable.daysOverdue <= 0 && !earlyBirdUnpaid) continue
    rows.push({
      payer: 'registration',
      reference: registration.reference,
      companyName: registration.company_name,
      contact: { email: registration.email, tel: registration.tel },
      eventTitle: registration.event_title,
      invoiceNumber: receivable.invoice.number,
      dueOn: receivable.dueOn,
      daysOverdue: Math.max(0, receivable.daysOverdue),
      outstandingCents: receivable.outstandingCents,
      ageBand: ageBandOf(invoicedOn.get(registration.id) ?? receivable.invoice.issuedOn, today),
      earlyBirdUnpaid,
      earlyBirdUntil,
      reminders: await remindersOf(db.kysely, registration.id),
    })
  }
  for (const receivable of await dealReceivablesOn(db.kysely, settings, today)) {
    if (receivable.daysOverdue <= 0) continue
    const { deal } = receivable
    rows.push({
      payer: 'sponsorship-deal',
      dealId: deal.id,
      reference: deal.reference,
      companyName: deal.company_name,
      contact: { email: deal.contact_email, tel: deal.contact_tel },
      eventTitle: `${deal.event_title} (${deal.package_title} sponsorship)`,
      invoiceNumber: receivable.invoice.number,
      dueOn: receivable.dueOn,
      daysOverdue: receivable.daysOverdue,
      outstandingCents: receivable.outstandingCents,
      ageBand: ageBandOf(receivable.invoice.issuedOn, today),
      earlyBirdUnpaid: false,
      earlyBirdUntil: null,
      reminders: (await dealRemindersOf(db.kysely, deal.id)).map(({ kind, businessDay }) => ({ kind, businessDay })),
    })
  }
  return rows.sort((a, b) => b.daysOverdue - a.daysOverdue || a.reference.localeCompare(b.reference))
}

/** A payment reminder as the registration's back-office page lists it. */
export interface SentPaymentReminder {
  kind: PaymentReminderKind
  businessDay: string
  outstandingCents: number
  sentByName: string | null
}

/** The payment reminders a registration (by its reference) was sent, oldest first, for its back-office page. */
export async function paymentRemindersOf(context: BackOfficeContext, reference: string): Promise<SentPaymentReminder[]> {
  const rows = await context.db.kysely
    .selectFrom('payment_reminders')
    .innerJoin('registrations', 'registrations.id', 'payment_reminders.registration_id')
    .select(['kind', 'business_day', 'outstanding_cents', 'sent_by_name'])
    .where('registrations.reference', '=', normaliseReference(reference) ?? '')
    .orderBy('payment_reminders.created_at')
    .execute()
  return rows.map((row) => ({ kind: row.kind, businessDay: row.business_day, outstandingCents: row.outstanding_cents, sentByName: row.sent_by_name }))
}

/** What staff's "remind now" was given: the registration's reference. */
export const remindNowSchema = z.pipe(ownFields, z.object({ reference: referenceField }))

/**
 * Staff's "remind now": a payment reminder e-mailed at once to a registration that owes money, or to the contact of a
 * sponsorship deal whose invoice does (by the deal's reference), whatever was sent before.
 */
export const remindNow = staffCommand(remindNowSchema, async (context, input, actor) => {
  const settings = await context.catalog.getSettings()
  const now = businessClock(context)
  const today = dayIn(now)
  const at = wallClock(context)
  const reference = normaliseReference(input.reference) ?? ''
  return async (transaction): Promise<CommandOutcome<{ reference: string; outstandingCents: number; payer: 'registration' | 'sponsorship-deal' }>> => {
    const registration = await transaction.selectFrom('registrations').select('id').where('reference', '=', reference).executeTakeFirst()
    if (!registration) {
      const deal = await transaction.selectFrom('sponsorship_deals').select('id').where('reference', '=', reference).executeTakeFirst()
      if (!deal) throw new BackOfficeError('not-found', { missing: 'registration', reference: input.reference })
      const [receivable] = await dealReceivablesOn(transaction, settings, today, deal.id)
      if (!receivable) throw new BackOfficeError('nothing-owed', { what: 'deal' })
      if (dealContactErased(receivable.deal)) throw new BackOfficeError('personal-data-erased', { whose: 'sponsor-contact' })
      await queueDealReminder(transaction, { receivable, kind: 'staff', settings, today, at, sentByName: actor.name })
      return {
        result: { reference, outstandingCents: receivable.outstandingCents, payer: 'sponsorship-deal' },
        audit: [
          {
            action: 'sponsorship-payment-reminder-sent',
            subjectType: 'sponsorship-deal',
            subjectId: reference,
            after: { outstandingCents: receivable.outstandingCents },
          },
        ],
        mailQueued: true,
      }
    }
    const [receivable] = await receivablesOn(transaction, settings, today, now, registration.id)
    if (!receivable) throw new BackOfficeError('nothing-owed')
    if (registrantAddressErased(receivable.registration)) {
      throw new BackOfficeError('personal-data-erased')
    }
    await queueReminder(context, transaction, { receivable, kind: 'staff', settings, today, at, sentByName: actor.name })
    return {
      result: { reference, outstandingCents: receivable.outstandingCents, payer: 'registration' },
      audit: [
        {
          action: 'registration-payment-reminder-sent',
          subjectType: 'registration',
          subjectId: reference,
          after: { outstandingCents: receivable.outstandingCents },
        },
      ],
      mailQueued: true,
    }
  }
})

/** How often the payment reminders due are looked for: hourly, so a new business day's reminders go out early in it. */
const PAYMENT_REMINDER_INTERVAL_MS = 60 * 60 * 1000

/**
 * Looks for the payment reminders due now and then every `intervalMs` in the background, telling the outbox of the
 * ones queued; a failed round is logged and tried again at the next. Stop it before closing the database.
 */
export function startPaymentReminders(options: { context: BackOfficeContext; onQueued: () => void; log: (line: string) => void; intervalMs?: number }): {
  stop(): Promise<void>
} {
  return startRecurringRound(
    'payment reminders',
    async () => {
      const sent = await sendDuePaymentReminders(options.context)
      if (sent.length > 0) options.onQueued()
    },
    { intervalMs: options.intervalMs ?? PAYMENT_REMINDER_INTERVAL_MS, log: options.log },
  )
}
