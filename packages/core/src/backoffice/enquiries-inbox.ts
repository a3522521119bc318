import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { enquiryReplyMail } from '../mail/enquiry-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { multiLine, singleLine } from '../validation/fields.ts'
import { wallClock, type ActingStaff, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'

export const ENQUIRY_STATUSES = ['new', 'in-progress', 'closed'] as const
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number]

/** What an enquiry is: the contact form, or a request for in-house or online training. */
export type EnquiryKind = 'contact' | 'inhouse-training' | 'online-training'

export interface EnquirySummary {
  id: string
  kind: EnquiryKind
  name: string
  email: string
  organisation: string
  /** The contact form's interest, or the kind of training. */
  topic: string
  receivedAt: string
  status: EnquiryStatus
  assignee: ActingStaff | null
}

export interface EnquiryActivity {
  id: string
  kind: 'note' | 'reply'
  author: string
  subject: string
  body: string
  createdAt: string
  /** A reply's delivery: `pending`, `sent` or `failed` in the outbox. */
  delivery: string | null
}

export interface EnquiryDetail extends EnquirySummary {
  phone: string
  message: string
  activity: EnquiryActivity[]
}

export interface EnquiryChange {
  before: { status: EnquiryStatus; assignee: string | null }
  after: { status: EnquiryStatus; assignee: string | null }
}

const MAX_NOTE_LENGTH = 5000
const MAX_SUBJECT_LENGTH = 200
const LIST_LIMIT = 200

const TRAINING_TOPICS: Record<string, string> = { inhouse: 'In-house training', online: 'Online training' }

function readStatus(value: string): EnquiryStatus {
  return (ENQUIRY_STATUSES as readonly string[]).includes(value) ? (value as EnquiryStatus) : 'new'
}

// Both tables in one shape, so the inbox lists and filters them together.
function inboxQuery(queries: Kysely<Database>) {
  const contact = queries
    .selectFrom('contact_enquiries')
    .select((eb) => [
      'id',
      eb.val('contact').as('source'),
      'full_name as name',
      'email',
      'phone',
      eb.fn.coalesce('company_name', eb.val('')).as('organisation'),
      'interest as topic',
      'message',
      'created_at',
      'status',
      'assignee_id',
      'assignee_name',
    ])
  const training = queries
    .selectFrom('training_requests')
    .select(['id', 'kind as source', 'name', 'email', 'phone', 'organization as organisation', 'kind as topic', 'message', 'created_at', 'status', 'assignee_id', 'assignee_name'])
  return queries.selectFrom(contact.unionAll(training).as('inbox')).selectAll()
}

type InboxRow = Awaited<ReturnType<ReturnType<typeof inboxQuery>['execute']>>[number]

function summaryOf(row: InboxRow): EnquirySummary {
  const training = row.source !== 'contact'
  return {
    id: row.id,
    kind: training ? (`${row.source}-training` as EnquiryKind) : 'contact',
    name: row.name,
    email: row.email,
    organisation: row.organisation,
    topic: training ? (TRAINING_TOPICS[row.topic] ?? row.topic) : row.topic,
    receivedAt: row.created_at,
    status: readStatus(row.status),
    assignee: row.assignee_id ? { id: row.assignee_id, name: row.assignee_name ?? '' } : null,
  }
}

/** The inbox, newest first (at most 200): every contact enquiry and training request, or those with one status. */
export async function listEnquiries(context: BackOfficeContext, options: { status?: EnquiryStatus | undefined } = {}): Promise<EnquirySummary[]> {
  const rows = await inboxQuery(context.db.kysely)
    .$if(options.status !== undefined, (query) => query.where('status', '=', options.status!))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIST_LIMIT)
    .execute()
  return rows.map(summaryOf)
}

async function inboxRow(queries: Kysely<Database>, id: string): Promise<InboxRow> {
  const row = await inboxQuery(queries).where('id', '=', id).executeTakeFirst()
  if (!row) throw new BackOfficeError('not-found', 'That enquiry does not exist (any more).')
  return row
}

/** One enquiry with what was sent and its thread of notes and replies, oldest first. */
export async function getEnquiry(context: BackOfficeContext, id: string): Promise<EnquiryDetail> {
  const queries = context.db.kysely
  const row = await inboxRow(queries, id)
  const activity = await queries
    .selectFrom('enquiry_activity')
    .leftJoin('outbox_messages', 'outbox_messages.id', 'enquiry_activity.outbox_message_id')
    .selectAll('enquiry_activity')
    .select('outbox_messages.status as delivery')
    .where('enquiry_activity.enquiry_id', '=', id)
    .orderBy('enquiry_activity.created_at')
    .orderBy('enquiry_activity.id')
    .execute()
  return {
    ...summaryOf(row),
    phone: row.phone,
    message: row.message,
    activity: activity.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      author: entry.author_name,
      subject: entry.subject,
      body: entry.body,
      createdAt: entry.created_at,
      delivery: entry.delivery ?? null,
    })),
  }
}

function tableOf(row: InboxRow): 'contact_enquiries' | 'training_requests' {
  return row.source === 'contact' ? 'contact_enquiries' : 'training_requests'
}

/**
 * Sets an enquiry's status and assignee (a staff member the caller checked exists, or null for nobody); answers
 * before and after for the audit log.
 */
export async function updateEnquiry(
  context: BackOfficeContext,
  id: string,
  change: { status: string; assignee: ActingStaff | null },
): Promise<EnquiryChange> {
  if (!(ENQUIRY_STATUSES as readonly string[]).includes(change.status)) throw new BackOfficeError('invalid-input', 'Choose the status: new, in progress or closed.')
  const status = change.status as EnquiryStatus
  return context.db.writeTransaction(async (transaction) => {
    const row = await inboxRow(transaction, id)
    await transaction
      .updateTable(tableOf(row))
      .set({ status, assignee_id: change.assignee?.id ?? null, assignee_name: change.assignee?.name ?? null })
      .where('id', '=', id)
      .execute()
    return {
      before: { status: readStatus(row.status), assignee: row.assignee_name },
      after: { status, assignee: change.assignee?.name ?? null },
    }
  })
}

/** Adds an internal note to an enquiry's thread (never sent to anyone). */
export async function addEnquiryNote(context: BackOfficeContext, id: string, text: string, staff: ActingStaff): Promise<void> {
  const body = multiLine(text)
  if (body === '') throw new BackOfficeError('invalid-input', 'Write the note first.')
  if (body.length > MAX_NOTE_LENGTH) throw new BackOfficeError('invalid-input', `The note is too long (at most ${MAX_NOTE_LENGTH} characters).`)
  const at = wallClock(context).toISOString()
  await context.db.writeTransaction(async (transaction) => {
    await inboxRow(transaction, id)
    await transaction
      .insertInto('enquiry_activity')
      .values({ id: newId(), enquiry_id: id, kind: 'note', author_id: staff.id, author_name: staff.name, subject: '', body, outbox_message_id: null, created_at: at })
      .execute()
  })
}

/**
 * E-mails a reply to the enquirer through the outbox, from the organiser's address (ORGANISER_EMAIL, else the site's
 * contact e-mail), and keeps it in the thread; a new enquiry becomes in progress.
 */
export async function replyToEnquiry(context: BackOfficeContext, id: string, reply: { subject: string; text: string }, staff: ActingStaff): Promise<{ outboxMessageId: string }> {
  const text = multiLine(reply.text)
  if (text === '') throw new BackOfficeError('invalid-input', 'Write the reply first.')
  if (text.length > MAX_NOTE_LENGTH) throw new BackOfficeError('invalid-input', `The reply is too long (at most ${MAX_NOTE_LENGTH} characters).`)
  const subject = singleLine(reply.subject)
  if (subject.length > MAX_SUBJECT_LENGTH) throw new BackOfficeError('invalid-input', `The subject is too long (at most ${MAX_SUBJECT_LENGTH} characters).`)
  const settings = await context.catalog.getSettings()
  const organiserEmail = context.organiserEmail || settings.email
  const at = wallClock(context)
  return context.db.writeTransaction(async (transaction) => {
    const row = await inboxRow(transaction, id)
    const summary = summaryOf(row)
    const finalSubject = subject || `Re: your ${summary.kind === 'contact' ? 'enquiry' : 'training request'} to ${settings.siteName}`
    const mail = enquiryReplyMail({ to: row.email, name: row.name, subject: finalSubject, text, original: row.message, organiserEmail, settings })
    const [outboxMessageId] = await enqueueMails(transaction, id, [{ topic: 'enquiry.reply', mail }], at)
    await transaction
      .insertInto('enquiry_activity')
      .values({ id: newId(), enquiry_id: id, kind: 'reply', author_id: staff.id, author_name: staff.name, subject: finalSubject, body: text, outbox_message_id: outboxMessageId!, created_at: at.toISOString() })
      .execute()
    if (row.status === 'new') await transaction.updateTable(tableOf(row)).set({ status: 'in-progress' }).where('id', '=', id).execute()
    return { outboxMessageId: outboxMessageId! }
  })
}
