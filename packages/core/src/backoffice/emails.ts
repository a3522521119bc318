import type { Kysely } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import type { OutboxMessageRow, OutboxStatus } from '../db/tables/outbox-messages.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { receiptSentAgain, type CorrectedInvoice } from '../mail/payment-mails.ts'
import type { PaymentPosition } from '../mail/position.ts'
import type { RegistrationMailJob } from '../mail/registration-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { attachedFileNames, sentMailRecordOf, sentRecordOf, storedMailOf, type StoredMail } from '../outbox/stored-mail.ts'
import { registrantAddressErased } from '../registration/model.ts'
import { registrationPositionOf } from '../registration/position.ts'
import { normaliseReference } from '../registration/reference.ts'
import * as z from 'zod/mini'
import { ownFields, requiredChoice } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { staffCommand, type CommandOutcome, type StaffActor, type StaffCommandContext } from './command.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { referenceField } from './fields.ts'

/** The registrant's e-mails staff can send again. */
export const RESENDABLE_MAILS = ['confirmation', 'receipt'] as const
export type ResendableMail = (typeof RESENDABLE_MAILS)[number]

export interface QueuedAgain {
  messageId: string
  topic: string
  to: string[]
  subject: string
}

/**
 * Where an e-mail's recipients, subject and attachments come from: `sent`, the record the outbox kept when it
 * delivered it; `to-send`, what it will be when sent (it has not been); `unrecorded`, sent before records were kept,
 * so nothing is shown rather than what today's data would render.
 */
type MessageRecord = 'sent' | 'to-send' | 'unrecorded'

/** What the back office shows of any queued e-mail: to whom, about what, and how sending it has gone. */
export interface MessageSummary {
  id: string
  topic: string
  record: MessageRecord
  to: string[]
  subject: string
  /** The attachments' file names. */
  attachments: string[]
  attempts: number
  lastError: string | null
  createdAt: string
}

export interface FailedMessage extends MessageSummary {
  /** The registration it belongs to, when it belongs to one. */
  reference: string | null
}

export interface RetriedMessage {
  id: string
  before: { status: OutboxStatus; attempts: number; lastError: string | null }
  after: { status: OutboxStatus; attempts: number }
}

const DEFAULT_FAILED_LIMIT = 100

/**
 * A queued e-mail's recipients, subject and attachments: as recorded when it was sent; for one not sent yet, as it
 * will be rendered when it is.
 */
export async function summariseMessage(
  db: CoreDatabase,
  row: Pick<
    OutboxMessageRow,
    'id' | 'topic' | 'mail' | 'source_id' | 'attempts' | 'last_error' | 'created_at' | 'status' | 'sent_to' | 'sent_subject' | 'sent_attachments'
  >,
): Promise<MessageSummary> {
  const facts = { id: row.id, topic: row.topic, attempts: row.attempts, lastError: row.last_error, createdAt: row.created_at }
  if (row.status === 'sent') {
    const sent = sentMailRecordOf(row)
    return sent ? { ...facts, record: 'sent', ...sent } : { ...facts, record: 'unrecorded', to: [], subject: '', attachments: [] }
  }
  const mail = await storedMailOf(db, row)
  return { ...facts, record: 'to-send', to: mail.to, subject: mail.subject, attachments: attachedFileNames(mail) }
}

/** A resend as the registration page's buttons send it: which of the registrant's e-mails to send again. */
export const resendSchema = z.pipe(ownFields, z.object({ reference: referenceField, mail: requiredChoice(RESENDABLE_MAILS) }))

interface QueuedRow {
  id: string
  topic: string
  mail: string
  source_id: string
}

/** Whether a registration moved on since its receipt said it was paid in full. */
function changedSincePaid(position: PaymentPosition): boolean {
  return (
    position.cancelled === true ||
    (position.credits ?? []).length > 0 ||
    position.outstandingCents > 0 ||
    (position.refundedCents ?? 0) > 0 ||
    (position.owedBackCents ?? 0) > 0
  )
}

/** The tax invoice that replaced the one a receipt attaches, when it was corrected since (correctInvoice). */
async function correctedInvoiceOf(queries: Kysely<Database>, registrationId: string, receipt: OutgoingMail): Promise<CorrectedInvoice | undefined> {
  const attachedId = receipt.attachments?.find((attachment) => attachment.invoiceId)?.invoiceId
  if (!attachedId) return undefined
  const [current, ...older] = await queries
    .selectFrom('invoices')
    .select(['id', 'number'])
    .where('registration_id', '=', registrationId)
    .orderBy('number', 'desc')
    .execute()
  const credited = older.find((invoice) => invoice.id === attachedId)
  return current && credited
    ? { credited: formatInvoiceNumber(Number(credited.number)), current: { id: current.id, number: formatInvoiceNumber(Number(current.number)) } }
    : undefined
}

const queueResend = staffCommand(resendSchema, async (context, input) => {
  const at = wallClock(context)
  const on = businessClock(context)
  const { bankDetails } = await context.catalog.getSettings()
  return async (transaction): Promise<CommandOutcome<QueuedRow>> => {
    const registration = await transaction
      .selectFrom('registrations')
      .selectAll()
      .where('reference', '=', normaliseReference(input.reference) ?? '')
      .executeTakeFirst()
    if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: input.reference })
    if (registrantAddressErased(registration)) {
      throw new BackOfficeError('personal-data-erased')
    }
    let mail: StoredMail
    let topic: string
    if (input.mail === 'confirmation') {
      if (registration.cancelled_at !== null) {
        throw new BackOfficeError('registration-cancelled')
      }
      // The confirmation states where the registration stands now: paid, or what is still owed, and who attends.
      const job: RegistrationMailJob = { template: 'registration.registrant', position: await registrationPositionOf(transaction, registration) }
      mail = job
      topic = job.template
    } else {
      // The receipt the payment sent: copies sent since have a topic of their own, so a copy is never the one restated.
      const receipt = await transaction
        .selectFrom('outbox_messages')
        .select('mail')
        .where('source_id', '=', registration.id)
        .where('topic', '=', 'payment.receipt')
        .orderBy('created_at', 'desc')
        .executeTakeFirst()
      if (!receipt) throw new BackOfficeError('no-receipt')
      const sent = JSON.parse(receipt.mail) as OutgoingMail
      // A receipt says it was paid in full; once cancelled (in whole or part), owed money back or its tax invoice
      // corrected, it also says where it stands now, with the credit notes and the invoice that replaced the corrected one.
      const position = await registrationPositionOf(transaction, registration)
      const correctedInvoice = await correctedInvoiceOf(transaction, registration.id, sent)
      mail =
        changedSincePaid(position) || correctedInvoice
          ? receiptSentAgain(sent, position, { reference: registration.reference, bankDetails, on, correctedInvoice })
          : sent
      topic = 'payment.receipt-again'
    }
    const [messageId] = await enqueueMails(transaction, registration.id, [{ topic, mail }], at)
    return {
      result: { id: messageId!, topic, mail: JSON.stringify(mail), source_id: registration.id },
      mailQueued: true,
      audit: [
        {
          action: 'registration-mail-resent',
          subjectType: 'registration',
          subjectId: registration.reference,
          after: { mail: input.mail, messageId, to: [registration.email] },
        },
      ],
    }
  }
})

/**
 * Queues a registration's confirmation or its payment receipt (a copy of the one sent, with the tax invoice; once the
 * registration was cancelled in whole or in part, or is owed money back, under where it stands now, with its credit
 * notes attached) to the registrant again; refused once the registrant's address was erased (`erasePersonalData`), and the confirmation of a
 * cancelled registration.
 */
export const resendRegistrationMail = Object.assign(
  async (context: StaffCommandContext, input: unknown, actor: StaffActor): Promise<QueuedAgain> => {
    const queued = await queueResend(context, input, actor)
    const rendered = await storedMailOf(context.db, queued)
    return { messageId: queued.id, topic: queued.topic, to: rendered.to, subject: rendered.subject }
  },
  { schema: resendSchema },
)

/** The e-mails in one state (failed, uncertain), newest first, with the registration each belongs to. */
async function listMessagesIn(context: BackOfficeContext, status: 'failed' | 'uncertain', limit: number): Promise<FailedMessage[]> {
  const { db } = context
  const rows = await db.kysely
    .selectFrom('outbox_messages')
    .leftJoin('registrations', 'registrations.id', 'outbox_messages.source_id')
    .select([
      'outbox_messages.id',
      'outbox_messages.topic',
      'outbox_messages.source_id',
      'outbox_messages.mail',
      'outbox_messages.attempts',
      'outbox_messages.last_error',
      'outbox_messages.created_at',
      'outbox_messages.status',
      'outbox_messages.sent_to',
      'outbox_messages.sent_subject',
      'outbox_messages.sent_attachments',
      'registrations.reference',
    ])
    .where('outbox_messages.status', '=', status)
    .orderBy('outbox_messages.created_at', 'desc')
    .orderBy('outbox_messages.id', 'desc')
    .limit(limit)
    .execute()
  return Promise.all(rows.map(async (row) => ({ ...(await summariseMessage(db, row)), reference: row.reference })))
}

/** The e-mails the outbox gave up on, newest first, with the registration each belongs to. */
export async function listFailedMessages(context: BackOfficeContext, limit = DEFAULT_FAILED_LIMIT): Promise<FailedMessage[]> {
  return listMessagesIn(context, 'failed', limit)
}

/**
 * The e-mails whose sending was interrupted (the worker stopped or lost the database between taking them up and
 * recording how it went), newest first: whether they arrived is not known, and they are not sent again until staff say.
 */
export async function listUncertainMessages(context: BackOfficeContext, limit = DEFAULT_FAILED_LIMIT): Promise<FailedMessage[]> {
  return listMessagesIn(context, 'uncertain', limit)
}

/** A retry as the e-mails page's button sends it. */
export const retrySchema = z.pipe(ownFields, z.object({ messageId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))) }))

/**
 * Puts a failed e-mail back in the queue, due at once, with a fresh day of attempts (the worker gives up a day after
 * a message was queued, so `created_at` becomes the moment of the retry).
 */
export const retryFailedMessage = staffCommand(retrySchema, async (context, { messageId }) => {
  const at = wallClock(context).toISOString()
  return async (transaction): Promise<CommandOutcome<RetriedMessage>> => {
    const message = await transaction
      .selectFrom('outbox_messages')
      .select(['id', 'status', 'attempts', 'last_error'])
      .where('id', '=', messageId)
      .executeTakeFirst()
    if (!message) throw new BackOfficeError('not-found', { missing: 'email' })
    if (message.status !== 'failed') {
      throw new BackOfficeError('not-retryable', {
        status: message.status,
      })
    }
    await transaction
      .updateTable('outbox_messages')
      .set({ status: 'pending', attempts: 0, next_attempt_at: at, created_at: at, locked_until: null, lease_token: null })
      .where('id', '=', messageId)
      .where('status', '=', 'failed')
      .execute()
    const result: RetriedMessage = {
      id: message.id,
      before: { status: message.status, attempts: message.attempts, lastError: message.last_error },
      after: { status: 'pending', attempts: 0 },
    }
    return {
      result,
      mailQueued: true,
      audit: [{ action: 'outbox-message-retried', subjectType: 'outbox-message', subjectId: message.id, before: result.before, after: result.after }],
    }
  }
})

/** What staff decide about an uncertain e-mail: it arrived (the recipient has it), or send it again. */
const UNCERTAIN_OUTCOMES = ['arrived', 'send-again'] as const

/** A decision as the e-mails page's buttons send it. */
const settleUncertainSchema = z.pipe(
  ownFields,
  z.object({
    messageId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    outcome: requiredChoice(UNCERTAIN_OUTCOMES),
  }),
)

export interface SettledMessage {
  id: string
  outcome: (typeof UNCERTAIN_OUTCOMES)[number]
  before: { status: OutboxStatus; attempts: number; lastError: string | null }
  after: { status: OutboxStatus }
}

/**
 * Settles an e-mail whose delivery is uncertain as staff decide: `arrived` records it as sent (the recipient
 * confirmed it), `send-again` queues it due at once with a fresh day of attempts, under the same Message-ID, so a
 * mail program that has the first copy may recognise the second. Refused ('not-uncertain') for any other e-mail.
 */
export const settleUncertainMessage = staffCommand(settleUncertainSchema, async (context, { messageId, outcome }) => {
  const at = wallClock(context).toISOString()
  const stored = await context.db.kysely.selectFrom('outbox_messages').select(['mail', 'source_id']).where('id', '=', messageId).executeTakeFirst()
  // What it was, as far as its stored e-mail still says (a registration's data may have been erased since).
  const sentRecord = stored && outcome === 'arrived' ? await storedMailOf(context.db, stored).then(sentRecordOf, () => ({})) : {}
  return async (transaction): Promise<CommandOutcome<SettledMessage>> => {
    const message = await transaction
      .selectFrom('outbox_messages')
      .select(['id', 'status', 'attempts', 'last_error'])
      .where('id', '=', messageId)
      .executeTakeFirst()
    if (!message) throw new BackOfficeError('not-found', { missing: 'email' })
    if (message.status !== 'uncertain') throw new BackOfficeError('not-uncertain', { status: message.status })
    const update = transaction.updateTable('outbox_messages')
    await (
      outcome === 'arrived'
        ? update.set({ status: 'sent', sent_at: at, last_error: null, ...sentRecord })
        : update.set({ status: 'pending', attempts: 0, next_attempt_at: at, created_at: at, locked_until: null, lease_token: null })
    )
      .where('id', '=', messageId)
      .where('status', '=', 'uncertain')
      .execute()
    const result: SettledMessage = {
      id: message.id,
      outcome,
      before: { status: message.status, attempts: message.attempts, lastError: message.last_error },
      after: { status: outcome === 'arrived' ? 'sent' : 'pending' },
    }
    return {
      result,
      mailQueued: outcome === 'send-again',
      audit: [
        {
          action: outcome === 'arrived' ? 'outbox-message-marked-arrived' : 'outbox-message-sent-again',
          subjectType: 'outbox-message',
          subjectId: message.id,
          before: result.before,
          after: result.after,
        },
      ],
    }
  }
})
