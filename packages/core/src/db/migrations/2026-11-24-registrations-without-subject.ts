import { sql, type Kysely } from 'kysely'

// registrations.registration_subject copied the event's e-mail subject line at registration time, but nothing ever
// read it: the e-mails take the subject from registration_mail_data, fixed at the same moment. Every other column and
// every row stays as it is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').dropColumn('registration_subject').execute()
}

// The subject of rows registered since is not known; they get an empty one.
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    .addColumn('registration_subject', 'text', (column) => column.notNull().defaultTo(sql.lit('')))
    .execute()
}
