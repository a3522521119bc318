import type { Database } from '@events/core'
import type { Kysely, Transaction } from 'kysely'
import type { PaymentCheckoutsTable } from './payment-checkouts.ts'
import type { PaymentWebhooksTable } from './payment-webhooks.ts'

/** The payments package's own tables, created and changed by its own migrations (./migrations). */
export interface PaymentTables {
  payment_checkouts: PaymentCheckoutsTable
  payment_webhooks: PaymentWebhooksTable
}

/** The database as the payments package sees it: the core's tables, which it reads and writes through, and its own. */
export type PaymentsDatabase = Database & PaymentTables

/** The core's query builder with the payment tables named: the same connection, typed for this package. */
export function paymentQueries(kysely: Kysely<Database>): Kysely<PaymentsDatabase> {
  return kysely as unknown as Kysely<PaymentsDatabase>
}

/** A core transaction with the payment tables named, so a payment's rows commit with the core's. */
export function paymentTransaction(transaction: Transaction<Database>): Transaction<PaymentsDatabase> {
  return transaction as unknown as Transaction<PaymentsDatabase>
}
