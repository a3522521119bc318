import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { enquiryReplyMail } from '../mail/enquiry-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import * as z from 'zod/mini'
import { optionalLine, ownFields, requiredChoice, requiredText } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { staffCommand, type AuditedChange, type CommandOutcome } from './command.ts'
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
    .select([
      'id',
      'kind as source',
      'name',
      'email',
      'phone',
      'organization as organisation',
      'kind as topic',
      'message',
      'created_at',
      'status',
      'assignee_id',
      'assignee_name',
    ])
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
  if (!row) throw new BackOfficeError('not-found', { missing: 'enquiry' })
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

const enquiryId = z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required')))

/**
 * A change of an enquiry's handling as its form sends it. `status` is applied only when it differs from
 * `statusShown`, the status the page showed: saving the assignee from a page opened before a reply made the enquiry
 * in progress leaves it in progress. The assignee is a staff member the caller checked exists (its id and name), or
 * nobody when `assigneeId` is empty.
 */
export const enquiryUpdateSchema = z.pipe(
  ownFields,
  z.object({
    enquiryId,
    status: requiredChoice(ENQUIRY_STATUSES),
    statusShown: z.optional(z.pipe(z.transform(singleLine), z.string())),
    assigneeId: optionalLine(100),
    assigneeName: optionalLine(200),
  }),
)
export type EnquiryUpdateInput = z.input<typeof enquiryUpdateSchema>

/** Sets an enquiry's status and assignee; answers before and after, as its audit row says. */
export const updateEnquiry = staffCommand(enquiryUpdateSchema, async (_context, input) => async (transaction): Promise<CommandOutcome<EnquiryChange>> => {
  const row = await inboxRow(transaction, input.enquiryId)
  const current = readStatus(row.status)
  const status = input.statusShown !== undefined && input.statusShown === input.status ? current : input.status
  const assignee = input.assigneeId === '' ? null : { id: input.assigneeId, name: input.assigneeName || input.assigneeId }
  await transaction
    .updateTable(tableOf(row))
    .set({ status, assignee_id: assignee?.id ?? null, assignee_name: assignee?.name ?? null })
    .where('id', '=', row.id)
    .execute()
  const change: EnquiryChange = { before: { status: current, assignee: row.assignee_name }, after: { status, assignee: assignee?.name ?? null } }
  return { result: change, audit: [{ action: 'enquiry-updated', subjectType: 'enquiry', subjectId: row.id, ...change }] }
})

/** An internal note as its form sends it. */
export const enquiryNoteSchema = z.pipe(ownFields, z.object({ enquiryId, note: requiredText(MAX_NOTE_LENGTH) }))

/** Adds an internal note to an enquiry's thread (never sent to anyone). */
export const addEnquiryNote = staffCommand(enquiryNoteSchema, async (context, input, staff) => {
  const at = wallClock(context).toISOString()
  return async (transaction): Promise<CommandOutcome<{ noteId: string }>> => {
    const row = await inboxRow(transaction, input.enquiryId)
    const noteId = newId()
    await transaction
      .insertInto('enquiry_activity')
      .values({
        id: noteId,
        enquiry_id: row.id,
        kind: 'note',
        author_id: staff.id,
        author_name: staff.name,
        subject: '',
        body: input.note,
        outbox_message_id: null,
        created_at: at,
      })
      .execute()
    return { result: { noteId }, audit: [{ action: 'enquiry-note-added', subjectType: 'enquiry', subjectId: row.id, after: { note: input.note } }] }
  }
})

/** A reply as its form sends it: the subject (a default when empty) and the text staff wrote. */
export const enquiryReplySchema = z.pipe(ownFields, z.object({ enquiryId, subject: optionalLine(MAX_SUBJECT_LENGTH), text: requiredText(MAX_NOTE_LENGTH) }))

/**
 * E-mails a reply to the enquirer through the outbox, from the organiser's address (ORGANISER_EMAIL, else the site's
 * contact e-mail), and keeps it in the thread; a new enquiry becomes in progress.
 */
export const replyToEnquiry = staffCommand(enquiryReplySchema, async (context, input, staff) => {
  const settings = await context.catalog.getSettings()
  const organiserEmail = context.organiserEmail || settings.email
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<{ outboxMessageId: string }>> => {
    const row = await inboxRow(transaction, input.enquiryId)
    const summary = summaryOf(row)
    const subject = input.subject || `Re: your ${summary.kind === 'contact' ? 'enquiry' : 'training request'} to ${settings.siteName}`
    const mail = enquiryReplyMail({ to: row.email, name: row.name, subject, text: input.text, original: row.message, organiserEmail, settings })
    const [outboxMessageId] = await enqueueMails(transaction, row.id, [{ topic: 'enquiry.reply', mail }], at)
    await transaction
      .insertInto('enquiry_activity')
      .values({
        id: newId(),
        enquiry_id: row.id,
        kind: 'reply',
        author_id: staff.id,
        author_name: staff.name,
        subject,
        body: input.text,
        outbox_message_id: outboxMessageId!,
        created_at: at.toISOString(),
      })
      .execute()
    const audit: AuditedChange[] = [{ action: 'enquiry-replied', subjectType: 'enquiry', subjectId: row.id, after: { subject, outboxMessageId } }]
    if (row.status === 'new') {
      await transaction.updateTable(tableOf(row)).set({ status: 'in-progress' }).where('id', '=', row.id).execute()
      audit.push({ action: 'enquiry-updated', subjectType: 'enquiry', subjectId: row.id, before: { status: 'new' }, after: { status: 'in-progress' } })
    }
    return { result: { outboxMessageId: outboxMessageId! }, mailQueued: true, audit }
  }
})
