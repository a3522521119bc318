import type { Kysely } from 'kysely'

// The back office's enquiries inbox: each contact enquiry and training request gets a status and an assignee, and a
// thread of internal notes and replies sent to the enquirer.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['contact_enquiries', 'training_requests']) {
    await db.schema
      .alterTable(table)
      .addColumn('status', 'text', (column) => column.notNull().defaultTo('new'))
      .execute()
    await db.schema.alterTable(table).addColumn('assignee_id', 'text').execute()
    await db.schema.alterTable(table).addColumn('assignee_name', 'text').execute()
  }
  await db.schema
    .createTable('enquiry_activity')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('enquiry_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('author_id', 'text', (column) => column.notNull())
    .addColumn('author_name', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('outbox_message_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('enquiry_activity_enquiry').on('enquiry_activity').columns(['enquiry_id', 'created_at']).execute()
  await db.schema.createIndex('contact_enquiries_created_at').on('contact_enquiries').column('created_at').execute()
  await db.schema.createIndex('training_requests_created_at').on('training_requests').column('created_at').execute()
}
