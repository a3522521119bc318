import { TIME_ZONE } from '@events/pricing'
import type { Kysely, Transaction } from 'kysely'
import { DateTime } from 'luxon'
import type { Database } from '../db/database.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import type { StoredRegistrationMailContext } from '../mail/registration-mails.ts'
import { sentMailRecordOf, type StoredMail } from '../outbox/stored-mail.ts'
import type { OutboxMessageRow } from '../db/tables/outbox-messages.ts'
import { isEmailAddress, singleLine } from '../validation/fields.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { staffCommand, type CommandOutcome } from './command.ts'
import { ownFields, requiredEmail, ticked } from '../submissions/fields.ts'
import * as z from 'zod/mini'

/** SARS: tax invoices, and the records they are made from, are kept for five years from their date. */
const INVOICE_RETENTION_YEARS = 5

const ANONYMISED = '[anonymised]'
// The invoice line's detail that names the delegates ("Delegate: …", "3 delegates: …"; issue-invoice.ts).
const DELEGATES_DETAIL = /^(Delegate|\d+ delegates): /

interface PersonalDataRegistration {
  reference: string
  roles: Array<'registrant' | 'delegate'>
  event: string
  registeredAt: string
  status: string
  company: { name: string; address: string; vatNumber: string; email: string; tel: string }
  delegates: Array<{ name: string; position: string; email: string }>
  invoice: { number: string; issuedAt: string } | null
  /** Until when the registration is kept for its tax invoice; then the retention job anonymises it. */
  keptUntil: string
  bankPayments: Array<{ amountCents: number; receivedOn: string; bankReference: string }>
}

interface PersonalDataEnquiry {
  id: string
  kind: 'contact' | 'training'
  receivedAt: string
  name: string
  organisation: string
  email: string
  phone: string
  subject: string
  message: string
  status: string
  thread: Array<{ kind: string; author: string; subject: string; body: string; createdAt: string }>
}

interface PersonalDataEmail {
  topic: string
  status: string
  createdAt: string
  sentAt: string | null
  to: string[]
  subject: string
}

/** A place on an event's waiting list under the address. */
interface PersonalDataWaitingListEntry {
  event: string
  joinedAt: string
  position: number
  name: string
  companyName: string
  email: string
  tel: string
  seats: number
  attendance: 'venue' | 'online'
  state: string
}

/** A sponsorship deal whose contact is the address: the contact's details, and the company the deal was invoiced to. */
interface PersonalDataSponsorshipDeal {
  reference: string
  event: string
  package: string
  companyName: string
  contactName: string
  contactEmail: string
  contactTel: string
  status: string
}

/** Everything held about one e-mail address, as exported for a data subject's request (POPIA section 23). */
export interface PersonalDataReport {
  email: string
  generatedAt: string
  registrations: PersonalDataRegistration[]
  enquiries: PersonalDataEnquiry[]
  waitingList: PersonalDataWaitingListEntry[]
  sponsorshipDeals: PersonalDataSponsorshipDeal[]
  emails: PersonalDataEmail[]
}

export interface ErasureResult {
  enquiriesAnonymised: number
  /** Waiting-list entries anonymised, and taken off their list (an offer's seats go to the next entry). */
  waitingListEntriesAnonymised: number
  /** E-mails deleted: the enquiries' and, for the registrations erased, those addressed to or naming the address. */
  emailsDeleted: number
  /**
   * Registrations whose details about the person were anonymised now (a delegate's name, position and e-mail; the
   * registrant's e-mail and telephone). Their tax invoice and credit notes stay as issued, with the company, its
   * address and VAT number, until `keptUntil`; then the retention job anonymises them.
   */
  registrationsErased: Array<{ reference: string; roles: PersonalDataRegistration['roles']; keptUntil: string }>
  /**
   * Sponsorship deals whose contact's name, e-mail and telephone were anonymised, by reference. Their tax invoice and
   * credit note name the company, its address and VAT number, not the contact, and stay as issued.
   */
  sponsorshipDealsErased: string[]
  /** Registrations for events not yet started in which the person still attends or registers, left whole. */
  registrationsActive: Array<{ reference: string; event: string; eventStart: string }>
}

function readEmail(input: string): string {
  const email = singleLine(input).toLowerCase()
  if (!isEmailAddress(email)) throw new BackOfficeError('invalid-input', { problem: 'email-address' })
  return email
}

function keptUntil(invoiceIssuedAt: string | null, registeredAt: string): string {
  return DateTime.fromISO(invoiceIssuedAt ?? registeredAt, { zone: TIME_ZONE })
    .plus({ years: INVOICE_RETENTION_YEARS })
    .toISODate()!
}

async function registrationsOf(queries: Kysely<Database>, email: string) {
  const asDelegate = queries
    .selectFrom('registration_delegates')
    .select('registration_id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
  return queries
    .selectFrom('registrations')
    .leftJoin('invoices', 'invoices.registration_id', 'registrations.id')
    .selectAll('registrations')
    .select(['invoices.number as invoice_number', 'invoices.issued_at as invoice_issued_at'])
    .where((eb) => eb.or([eb(eb.fn('lower', ['registrations.email']), '=', email), eb('registrations.id', 'in', asDelegate)]))
    .orderBy('registrations.created_at')
    .execute()
}

async function enquiryRows(queries: Kysely<Database>, email: string) {
  const [contact, training] = await Promise.all([
    queries
      .selectFrom('contact_enquiries')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .orderBy('created_at')
      .execute(),
    queries
      .selectFrom('training_requests')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .orderBy('created_at')
      .execute(),
  ])
  return { contact, training }
}

/**
 * Whom an outbox row's e-mail is addressed to. A registration e-mail rendered when sent names its recipient by its
 * template: the registrant's address, or the address of the delegate at its position in the registration.
 */
function recipientsOf(stored: StoredMail, registration: { email: string; delegateEmails: string[] } | undefined, organiserEmail: string | undefined): string[] {
  if (!('template' in stored)) return stored.to
  if (stored.template === 'registration.delegate') {
    const delegate = registration?.delegateEmails[stored.delegate]
    return delegate ? [delegate] : []
  }
  if (stored.template === 'registration.registrant') return registration ? [registration.email] : []
  return organiserEmail ? [organiserEmail] : []
}

/**
 * The e-mails recorded as sent to an address, wherever they came from: a replaced delegate's notice belongs to a
 * registration that no longer names them.
 */
async function emailsSentTo(queries: Kysely<Database>, email: string) {
  const rows = await queries
    .selectFrom('outbox_messages')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['sent_to']), 'like', `%${JSON.stringify(email).slice(1, -1)}%`))
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.filter((row) => sentMailRecordOf(row)?.to.some((address) => address.toLowerCase() === email))
}

function emailOf(
  row: Pick<OutboxMessageRow, 'topic' | 'status' | 'created_at' | 'sent_at' | 'mail' | 'sent_to' | 'sent_subject' | 'sent_attachments'>,
  to: string[],
): PersonalDataEmail {
  const stored = JSON.parse(row.mail) as StoredMail
  const rendered = 'template' in stored ? undefined : stored
  return {
    topic: row.topic,
    status: row.status,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    to,
    subject: sentMailRecordOf(row)?.subject ?? rendered?.subject ?? `(${row.topic}, written from the registration when sent)`,
  }
}

/**
 * Everything held about an e-mail address (case-insensitive), and nothing about anyone else: registrations where it is
 * the registrant's or a delegate's, each with the person's own entries only (a delegate sees neither the co-delegates
 * nor the company's contact details, which are the registrant's); contact enquiries and training requests with their
 * notes and replies; and the e-mails addressed to it.
 */
export async function findPersonalData(context: BackOfficeContext, emailInput: string): Promise<PersonalDataReport> {
  const email = readEmail(emailInput)
  const queries = context.db.kysely
  const registrations = await registrationsOf(queries, email)
  const { contact, training } = await enquiryRows(queries, email)
  const waiting = await waitingListRows(queries, email)
  const deals = await sponsorshipDealRows(queries, email)
  const registrationIds = registrations.map((row) => row.id)
  const enquiryIds = [...contact, ...training].map((row) => row.id)
  const sourceIds = [...registrationIds, ...enquiryIds, ...waiting.map((row) => row.id)]
  const [delegates, payments, activity, emails, sentTo] = await Promise.all([
    registrationIds.length
      ? queries.selectFrom('registration_delegates').selectAll().where('registration_id', 'in', registrationIds).orderBy('ordinal').execute()
      : [],
    registrationIds.length
      ? queries.selectFrom('bank_payments').selectAll().where('registration_id', 'in', registrationIds).orderBy('received_on').execute()
      : [],
    enquiryIds.length ? queries.selectFrom('enquiry_activity').selectAll().where('enquiry_id', 'in', enquiryIds).orderBy('created_at').execute() : [],
    sourceIds.length ? queries.selectFrom('outbox_messages').selectAll().where('source_id', 'in', sourceIds).orderBy('created_at').orderBy('id').execute() : [],
    emailsSentTo(queries, email),
  ])
  const sentElsewhere = sentTo.filter((row) => !sourceIds.includes(row.source_id))
  const registrationsById = new Map(
    registrations.map((row) => [
      row.id,
      { email: row.email, delegateEmails: delegates.filter((delegate) => delegate.registration_id === row.id).map((delegate) => delegate.email) },
    ]),
  )
  const threadOf = (id: string) =>
    activity
      .filter((entry) => entry.enquiry_id === id)
      .map((entry) => ({ kind: entry.kind, author: entry.author_name, subject: entry.subject, body: entry.body, createdAt: entry.created_at }))
  return {
    email,
    generatedAt: wallClock(context).toISOString(),
    registrations: registrations.map((row) => {
      const theirs = delegates.filter((delegate) => delegate.registration_id === row.id)
      const own = theirs.filter((delegate) => delegate.email.toLowerCase() === email)
      const roles: PersonalDataRegistration['roles'] = []
      const registrant = row.email.toLowerCase() === email
      if (registrant) roles.push('registrant')
      if (own.length > 0) roles.push('delegate')
      return {
        reference: row.reference,
        roles,
        event: row.event_title,
        registeredAt: row.created_at,
        status: row.status,
        company: {
          name: row.company_name,
          address: row.address,
          vatNumber: row.vat_number,
          email: registrant ? row.email : '',
          tel: registrant ? row.tel : '',
        },
        delegates: own.map((delegate) => ({ name: delegate.name, position: delegate.position, email: delegate.email })),
        invoice:
          row.invoice_number === null || row.invoice_issued_at === null
            ? null
            : { number: formatInvoiceNumber(Number(row.invoice_number)), issuedAt: row.invoice_issued_at },
        keptUntil: keptUntil(row.invoice_issued_at, row.created_at),
        bankPayments: payments
          .filter((payment) => payment.registration_id === row.id)
          .map((payment) => ({ amountCents: payment.amount_cents, receivedOn: payment.received_on, bankReference: payment.bank_reference })),
      }
    }),
    enquiries: [
      ...contact.map((row) => ({
        id: row.id,
        kind: 'contact' as const,
        receivedAt: row.created_at,
        name: row.full_name,
        organisation: row.company_name ?? '',
        email: row.email,
        phone: row.phone,
        subject: row.interest,
        message: row.message,
        status: row.status,
        thread: threadOf(row.id),
      })),
      ...training.map((row) => ({
        id: row.id,
        kind: 'training' as const,
        receivedAt: row.created_at,
        name: row.name,
        organisation: row.organization,
        email: row.email,
        phone: row.phone,
        subject: `${row.kind} training`,
        message: row.message,
        status: row.status,
        thread: threadOf(row.id),
      })),
    ],
    waitingList: waiting.map((row) => ({
      event: row.event_title,
      joinedAt: row.created_at,
      position: row.position,
      name: row.name,
      companyName: row.company_name,
      email: row.email,
      tel: row.tel,
      seats: row.seats,
      attendance: row.attendance,
      state: row.state,
    })),
    sponsorshipDeals: deals.map((row) => ({
      reference: row.reference,
      event: row.event_title,
      package: row.package_title,
      companyName: row.company_name,
      contactName: row.contact_name,
      contactEmail: row.contact_email,
      contactTel: row.contact_tel,
      status: row.status,
    })),
    emails: [
      ...emails.flatMap((row) => {
        // A sent e-mail's recipients as recorded when it went out; one not sent yet, as it will be addressed.
        const to = sentMailRecordOf(row)?.to ?? recipientsOf(JSON.parse(row.mail) as StoredMail, registrationsById.get(row.source_id), context.organiserEmail)
        return to.some((address) => address.toLowerCase() === email) ? [emailOf(row, to)] : []
      }),
      ...sentElsewhere.map((row) => emailOf(row, sentMailRecordOf(row)!.to)),
    ],
  }
}

/** Anonymises contact enquiries and training requests in place (counts and dates stay), their threads and e-mails. */
async function anonymiseEnquiries(transaction: Transaction<Database>, contactIds: string[], trainingIds: string[]): Promise<number> {
  if (contactIds.length) {
    await transaction
      .updateTable('contact_enquiries')
      .set({ full_name: ANONYMISED, company_name: null, email: '', phone: '', message: ANONYMISED, assignee_id: null, assignee_name: null, status: 'closed' })
      .where('id', 'in', contactIds)
      .execute()
  }
  if (trainingIds.length) {
    await transaction
      .updateTable('training_requests')
      .set({ name: ANONYMISED, organization: ANONYMISED, email: '', phone: '', message: ANONYMISED, assignee_id: null, assignee_name: null, status: 'closed' })
      .where('id', 'in', trainingIds)
      .execute()
  }
  const ids = [...contactIds, ...trainingIds]
  if (ids.length === 0) return 0
  await transaction.updateTable('enquiry_activity').set({ subject: '', body: ANONYMISED }).where('enquiry_id', 'in', ids).execute()
  const deleted = await transaction.deleteFrom('outbox_messages').where('source_id', 'in', ids).executeTakeFirst()
  return Number(deleted.numDeletedRows)
}

function sponsorshipDealRows(queries: Kysely<Database>, email: string) {
  return queries
    .selectFrom('sponsorship_deals')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['contact_email']), '=', email))
    .orderBy('recorded_at')
    .execute()
}

function waitingListRows(queries: Kysely<Database>, email: string) {
  return queries
    .selectFrom('waiting_list_entries')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .orderBy('created_at')
    .execute()
}

/**
 * Anonymises waiting-list entries in place (their place, seats and dates stay) and takes those still waiting or
 * holding an offer off the list; their e-mails are deleted. Answers how many e-mails were.
 */
async function anonymiseWaitingListEntries(transaction: Transaction<Database>, ids: string[], at: Date): Promise<number> {
  if (ids.length === 0) return 0
  await transaction
    .updateTable('waiting_list_entries')
    .set({ state: 'removed', offer_token_hash: null })
    .where('id', 'in', ids)
    .where('state', 'in', ['waiting', 'offered'])
    .execute()
  await transaction
    .updateTable('waiting_list_entries')
    .set({ name: ANONYMISED, company_name: '', email: '', tel: '', updated_at: at.toISOString() })
    .where('id', 'in', ids)
    .execute()
  const deleted = await transaction.deleteFrom('outbox_messages').where('source_id', 'in', ids).executeTakeFirst()
  return Number(deleted.numDeletedRows)
}

type RegistrationRow = Awaited<ReturnType<typeof registrationsOf>>[number]

/**
 * Anonymises what one registration holds about an address and is not on its tax invoice: the delegate rows with the
 * address, the registrant's e-mail and telephone if it is theirs, the same fields in the stored mail data (so every
 * e-mail rendered or sent again from now on leaves them out), and the registration's e-mails addressed to it or
 * naming it. The registration's company, address and VAT number are the invoice's recipient and stay; the invoice
 * and credit notes are not touched. Answers how many e-mails were deleted.
 */
async function eraseFromRegistration(
  transaction: Transaction<Database>,
  registration: RegistrationRow,
  email: string,
  roles: PersonalDataRegistration['roles'],
): Promise<number> {
  const erasedDelegates = await transaction
    .selectFrom('registration_delegates')
    .select(['id', 'ordinal'])
    .where('registration_id', '=', registration.id)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .execute()
  const erasedOrdinals = new Set(erasedDelegates.map((delegate) => delegate.ordinal))
  if (erasedDelegates.length) {
    await transaction
      .updateTable('registration_delegates')
      .set({ name: ANONYMISED, position: '', email: '', professional_registration_number: null })
      .where(
        'id',
        'in',
        erasedDelegates.map((delegate) => delegate.id),
      )
      .execute()
  }
  const registrantErased = roles.includes('registrant')
  if (registrantErased) {
    await transaction.updateTable('registrations').set({ email: '', tel: '' }).where('id', '=', registration.id).execute()
  }

  const stored = await transaction.selectFrom('registration_mail_data').select('context_json').where('registration_id', '=', registration.id).executeTakeFirst()
  if (stored) {
    const mailContext = JSON.parse(stored.context_json) as StoredRegistrationMailContext
    const { submission } = mailContext
    submission.delegates = submission.delegates.map((delegate, index) =>
      erasedOrdinals.has(index) || delegate.email.toLowerCase() === email
        ? { ...delegate, name: ANONYMISED, position: '', email: '', professionalRegistrationNumber: '' }
        : delegate,
    )
    if (registrantErased) {
      submission.email = ''
      submission.tel = ''
    }
    await transaction
      .updateTable('registration_mail_data')
      .set({ context_json: JSON.stringify(mailContext) })
      .where('registration_id', '=', registration.id)
      .execute()
  }

  const messages = await transaction
    .selectFrom('outbox_messages')
    .select(['id', 'mail', 'sent_to', 'sent_subject', 'sent_attachments'])
    .where('source_id', '=', registration.id)
    .execute()
  const erasedMessages = messages.filter((message) => {
    // What was sent to the address (a replaced delegate's notice names them in its record) goes with it.
    if (sentMailRecordOf(message)?.to.some((address) => address.toLowerCase() === email)) return true
    const mail = JSON.parse(message.mail) as StoredMail
    if (!('template' in mail)) return message.mail.toLowerCase().includes(email)
    if (mail.template === 'registration.registrant') return registrantErased
    if (mail.template === 'registration.delegate') return erasedOrdinals.has(mail.delegate)
    return false
  })
  if (erasedMessages.length === 0) return 0
  await transaction
    .deleteFrom('outbox_messages')
    .where(
      'id',
      'in',
      erasedMessages.map((message) => message.id),
    )
    .execute()
  return erasedMessages.length
}

/** An erasure as the data-requests screen posts it: the address, and the box ticked to confirm it. */
export const erasureSchema = z.pipe(ownFields, z.object({ email: requiredEmail, confirm: ticked }))

/**
 * Erases what the law lets go for an e-mail address. Its contact enquiries and training requests are anonymised with
 * their notes, replies and e-mails. In its registrations, what is not on the tax invoice is anonymised now
 * (`eraseFromRegistration`); the invoice and credit notes are kept as issued for five years (SARS), and
 * `anonymiseExpiredPersonalData` anonymises them then. A registration for an event not yet started in which the
 * person still attends (or, as registrant, still has delegates attending) is left whole: erasing it would leave a
 * booking nobody can be told about, so staff cancel it or replace the delegate first, then erase again.
 */
export const erasePersonalData = staffCommand(
  erasureSchema,
  async (context, input) => {
    const email = readEmail(input.email)
    const today = businessClock(context).getTime()
    // What was held before, for the audit row: how many records of each kind the erasure met.
    const found = await findPersonalData(context, email)
    const before = {
      registrations: found.registrations.length,
      enquiries: found.enquiries.length,
      waitingList: found.waitingList.length,
      sponsorshipDeals: found.sponsorshipDeals.length,
      emails: found.emails.length,
    }
    return async (transaction): Promise<CommandOutcome<ErasureResult>> => {
      const { contact, training } = await enquiryRows(transaction, email)
      const waiting = await waitingListRows(transaction, email)
      const result: ErasureResult = {
        enquiriesAnonymised: contact.length + training.length,
        waitingListEntriesAnonymised: waiting.length,
        emailsDeleted:
          (await anonymiseEnquiries(
            transaction,
            contact.map((row) => row.id),
            training.map((row) => row.id),
          )) +
          (await anonymiseWaitingListEntries(
            transaction,
            waiting.map((row) => row.id),
            wallClock(context),
          )),
        registrationsErased: [],
        sponsorshipDealsErased: [],
        registrationsActive: [],
      }
      // A deal's contact is anonymised; its company, address and VAT number stay on its invoice as tax law requires.
      const deals = await sponsorshipDealRows(transaction, email)
      if (deals.length > 0) {
        const dealIds = deals.map((row) => row.id)
        await transaction
          .updateTable('sponsorship_deals')
          .set({ contact_name: ANONYMISED, contact_email: '', contact_tel: '' })
          .where('id', 'in', dealIds)
          .execute()
        const mails = await transaction.deleteFrom('outbox_messages').where('source_id', 'in', dealIds).executeTakeFirst()
        result.emailsDeleted += Number(mails.numDeletedRows)
        result.sponsorshipDealsErased = deals.map((row) => row.reference)
      }
      const registrations = await registrationsOf(transaction, email)
      const delegates = registrations.length
        ? await transaction
            .selectFrom('registration_delegates')
            .select(['registration_id', 'email', 'cancellation_id'])
            .where(
              'registration_id',
              'in',
              registrations.map((row) => row.id),
            )
            .execute()
        : []
      for (const registration of registrations) {
        const own = delegates.filter((delegate) => delegate.registration_id === registration.id)
        const roles: PersonalDataRegistration['roles'] = []
        if (registration.email.toLowerCase() === email) roles.push('registrant')
        if (own.some((delegate) => delegate.email.toLowerCase() === email)) roles.push('delegate')
        const attending = own.filter(
          (delegate) => delegate.cancellation_id === null && (roles.includes('registrant') || delegate.email.toLowerCase() === email),
        )
        if (new Date(registration.event_start).getTime() > today && attending.length) {
          result.registrationsActive.push({ reference: registration.reference, event: registration.event_title, eventStart: registration.event_start })
          continue
        }
        result.emailsDeleted += await eraseFromRegistration(transaction, registration, email, roles)
        result.registrationsErased.push({
          reference: registration.reference,
          roles,
          keptUntil: keptUntil(registration.invoice_issued_at, registration.created_at),
        })
      }
      // What was sent to the address about a registration that no longer names it (a replaced delegate's notice).
      const active = new Set(result.registrationsActive.map((registration) => registration.reference))
      const keptSources = new Set(registrations.filter((registration) => active.has(registration.reference)).map((registration) => registration.id))
      const sentElsewhere = (await emailsSentTo(transaction, email)).filter((row) => !keptSources.has(row.source_id))
      if (sentElsewhere.length > 0) {
        await transaction
          .deleteFrom('outbox_messages')
          .where(
            'id',
            'in',
            sentElsewhere.map((row) => row.id),
          )
          .execute()
        result.emailsDeleted += sentElsewhere.length
      }
      return { result, audit: [{ action: 'personal-data-erased', subjectType: 'data-subject', subjectId: email, before, after: result }] }
    }
  },
  // Erasure cannot be undone: a manager's decision.
  { role: 'manager' },
)

/** What the retention job needs: the database and, for tests, the clock (the real time otherwise, never SITE_DATE). */
export type RetentionContext = Pick<BackOfficeContext, 'db' | 'now'>

export interface RetentionResult {
  enquiriesAnonymised: number
  registrationsAnonymised: number
}

/**
 * The retention job: anonymises contact enquiries and training requests older than `enquiryRetentionMonths`, and
 * registrations whose tax invoice is more than five years old (registrant and delegates, the stored e-mail data, the
 * invoice's recipient and delegate lines, its e-mails). Run again, it finds nothing new.
 */
export async function anonymiseExpiredPersonalData(context: RetentionContext, options: { enquiryRetentionMonths: number }): Promise<RetentionResult> {
  const now = DateTime.fromJSDate(wallClock(context), { zone: TIME_ZONE })
  const enquiriesBefore = now.minus({ months: options.enquiryRetentionMonths }).toUTC().toISO()!
  const invoicesBefore = now.minus({ years: INVOICE_RETENTION_YEARS }).toUTC().toISO()!
  return context.db.writeTransaction(async (transaction) => {
    const [contact, training] = await Promise.all([
      transaction.selectFrom('contact_enquiries').select('id').where('created_at', '<', enquiriesBefore).where('full_name', '<>', ANONYMISED).execute(),
      transaction.selectFrom('training_requests').select('id').where('created_at', '<', enquiriesBefore).where('name', '<>', ANONYMISED).execute(),
    ])
    await anonymiseEnquiries(
      transaction,
      contact.map((row) => row.id),
      training.map((row) => row.id),
    )
    const expired = await transaction
      .selectFrom('registrations')
      .innerJoin('invoices', 'invoices.registration_id', 'registrations.id')
      .select(['registrations.id', 'invoices.id as invoice_id', 'invoices.data_json'])
      .where('invoices.issued_at', '<', invoicesBefore)
      .where('registrations.company_name', '<>', ANONYMISED)
      .execute()
    for (const registration of expired) {
      await transaction
        .updateTable('registrations')
        .set({ company_name: ANONYMISED, address: '', email: '', tel: '', vat_number: '' })
        .where('id', '=', registration.id)
        .execute()
      await transaction
        .updateTable('registration_delegates')
        .set({ name: ANONYMISED, position: '', email: '', professional_registration_number: null })
        .where('registration_id', '=', registration.id)
        .execute()
      await transaction.deleteFrom('registration_mail_data').where('registration_id', '=', registration.id).execute()
      await transaction.deleteFrom('outbox_messages').where('source_id', '=', registration.id).execute()
      // The invoice keeps its number, date, amounts and description; who it was for goes, and its PDF is drawn
      // again from what is left when it is next asked for.
      const data =
        registration.data_json === null ? null : (JSON.parse(registration.data_json) as { recipient?: unknown; lines?: Array<{ details?: string[] }> })
      if (data) {
        data.recipient = { name: ANONYMISED, addressLines: [], vatNumber: '' }
        data.lines = (data.lines ?? []).map((line) => ({ ...line, details: (line.details ?? []).filter((detail) => !DELEGATES_DETAIL.test(detail)) }))
      }
      await transaction
        .updateTable('invoices')
        .set({ data_json: data === null ? null : JSON.stringify(data), pdf_base64: '' })
        .where('id', '=', registration.invoice_id)
        .execute()
    }
    return { enquiriesAnonymised: contact.length + training.length, registrationsAnonymised: expired.length }
  })
}

/** How often the site process runs the retention job. */
const RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000

export interface RetentionJob {
  stop(): void
}

/**
 * Runs `anonymiseExpiredPersonalData` in the site process: once soon after startup, then every six hours. A failed
 * run (the database away) is reported and tried again at the next turn.
 */
export function startRetentionJob(options: {
  context: RetentionContext
  enquiryRetentionMonths: number
  onResult: (result: RetentionResult) => void
  onError: (error: unknown) => void
  intervalMs?: number
}): RetentionJob {
  const run = () => {
    anonymiseExpiredPersonalData(options.context, { enquiryRetentionMonths: options.enquiryRetentionMonths }).then(options.onResult, options.onError)
  }
  const first = setTimeout(run, 1000)
  const every = setInterval(run, options.intervalMs ?? RETENTION_INTERVAL_MS)
  first.unref()
  every.unref()
  return {
    stop() {
      clearTimeout(first)
      clearInterval(every)
    },
  }
}
