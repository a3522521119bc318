import type { AuditWriter } from '@events/core'
import { v7 as uuidv7 } from 'uuid'
import type { StaffKysely } from './db/database.ts'
import type { StaffAuditLogRow } from './db/tables/audit-log.ts'

/** Who did something: a staff member, or nobody signed in (a failed sign-in, the command line). */
export interface AuditActor {
  id: string
  email: string
}

export interface AuditRecord {
  actor: AuditActor | null
  /** A verb in kebab case, e.g. `sign-in`, `staff-created`, `registration-payment-recorded`. */
  action: string
  subjectType: string
  subjectId?: string | null
  before?: unknown
  after?: unknown
  ipAddress?: string | null
  /** When it happened; the current time unless given. */
  at?: Date
}

export interface AuditEntry {
  id: string
  occurredAt: string
  actor: AuditActor | null
  action: string
  subjectType: string
  subjectId: string | null
  before: unknown
  after: unknown
  ipAddress: string | null
}

export interface AuditPage {
  entries: AuditEntry[]
  page: number
  pageSize: number
  hasMore: boolean
}

/** What an entry is about, e.g. `{ subjectType: 'registration', subjectId: 'K7M2QX' }`. */
export interface AuditSubject {
  subjectType: string
  subjectId: string
}

export interface AuditListOptions {
  page?: number
  pageSize?: number
  /** Only the entries about one of these subjects; every entry when left out. */
  subjects?: readonly AuditSubject[]
}

const DEFAULT_PAGE_SIZE = 50
const MAX_PAGE_SIZE = 200

function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value)
}

function fromJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text)
}

function entryOf(row: StaffAuditLogRow): AuditEntry {
  return {
    id: row.id,
    occurredAt: row.occurred_at,
    actor: row.actor_id === null ? null : { id: row.actor_id, email: row.actor_email ?? '' },
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    before: fromJson(row.before_json),
    after: fromJson(row.after_json),
    ipAddress: row.ip_address,
  }
}

/** Appends one entry to the audit log (who, when, what, and the subject before and after). */
export async function recordAudit(kysely: StaffKysely, record: AuditRecord): Promise<void> {
  await kysely
    .insertInto('staff_audit_log')
    .values({
      id: uuidv7(),
      occurred_at: (record.at ?? new Date()).toISOString(),
      actor_id: record.actor?.id ?? null,
      actor_email: record.actor?.email ?? null,
      action: record.action,
      subject_type: record.subjectType,
      subject_id: record.subjectId ?? null,
      before_json: toJson(record.before),
      after_json: toJson(record.after),
      ip_address: record.ipAddress ?? null,
    })
    .execute()
}

/** One page of the audit log, newest first (pages count from 1), of every entry or of those about given subjects. */
export async function listAudit(kysely: StaffKysely, options: AuditListOptions = {}): Promise<AuditPage> {
  const page = Math.max(1, Math.floor(options.page ?? 1))
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)))
  // One row more than the page tells whether another page follows, without counting the whole log.
  const rows = await kysely
    .selectFrom('staff_audit_log')
    .selectAll()
    .$if(options.subjects !== undefined, (query) =>
      query.where((eb) =>
        eb.or((options.subjects ?? []).map((subject) => eb.and([eb('subject_type', '=', subject.subjectType), eb('subject_id', '=', subject.subjectId)]))),
      ),
    )
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute()
  return { entries: rows.slice(0, pageSize).map(entryOf), page, pageSize, hasMore: rows.length > pageSize }
}

/**
 * The audit writer `@events/core`'s staff commands take: it appends the command's row to this package's audit log
 * through the command's own transaction, so the row is kept exactly when the change is.
 */
export const staffAuditWriter: AuditWriter = (transaction, row) =>
  recordAudit(transaction as unknown as StaffKysely, {
    actor: { id: row.actor.id, email: row.actor.email },
    action: row.action,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    before: row.before,
    after: row.after,
    ipAddress: row.actor.ipAddress,
    at: row.at,
  })
