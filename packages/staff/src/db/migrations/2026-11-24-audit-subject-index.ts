import type { Kysely } from 'kysely'

// A registration's page shows the audit entries about it (and about its e-mails): looked up by subject, newest first.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('staff_audit_log_subject').on('staff_audit_log').columns(['subject_type', 'subject_id', 'occurred_at']).execute()
}
