import { sql, type Kysely } from 'kysely'

// registrations.payment_method held the specification's labels; it holds stable keys now, and what people read comes
// from PAYMENT_METHOD_LABELS (src/submissions/choices.ts). The e-mails of a registration are rendered from its
// registration_mail_data when sent, so the method in that JSON (written by JSON.stringify, without spaces) changes too.
// The pairs are written out here, not imported, so the migration keeps meaning what it meant when it landed.
const LABEL_KEYS = [
  ['Bank Transfer', 'bank-transfer'],
  ['Credit/Debit Card', 'card'],
] as const

async function rename(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`update registrations set payment_method = ${to} where payment_method = ${from}`.execute(db)
  const fromJson = `"paymentMethod":${JSON.stringify(from)}`
  const toJson = `"paymentMethod":${JSON.stringify(to)}`
  await sql`update registration_mail_data set context_json = replace(context_json, ${fromJson}, ${toJson}) where context_json like ${`%${fromJson}%`}`.execute(
    db,
  )
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [label, key] of LABEL_KEYS) await rename(db, label, key)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [label, key] of LABEL_KEYS) await rename(db, key, label)
}
