import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { WriteTransactionRunner } from './group-commit.ts'
import type { AccountingExportedDocumentsTable, BackOfficeSettingsTable } from './tables/accounting-exports.ts'
import type { BankPaymentsTable } from './tables/bank-payments.ts'
import type { CancellationRequestsTable } from './tables/cancellation-requests.ts'
import type { CancellationsTable, CreditNotesTable, RefundsTable } from './tables/cancellations.ts'
import type { BankStatementImportLinesTable, BankStatementImportsTable, BankStatementLinesTable, BankStatementMappingsTable } from './tables/bank-statements.ts'
import type { CertificatesTable, EventCpdDayHoursTable, EventCpdHoursTable } from './tables/certificates.ts'
import type { CheckInsTable } from './tables/check-ins.ts'
import type { DelegatePassesTable } from './tables/delegate-passes.ts'
import type { EventJoiningTable, OnlineAttendanceTable } from './tables/joining.ts'
import type { JoiningMailsTable } from './tables/joining-mails.ts'
import type { DelegateMessagesTable } from './tables/delegate-messages.ts'
import type { ContactEnquiriesTable } from './tables/contact-enquiries.ts'
import type { EnquiryActivityTable } from './tables/enquiry-activity.ts'
import type { DiscountCodesTable, RegistrationDiscountsTable } from './tables/discount-codes.ts'
import type { EventSeatsTable } from './tables/event-seats.ts'
import type {
  SponsorshipCreditNotesTable,
  SponsorshipDealsTable,
  SponsorshipInvoicesTable,
  SponsorshipPaymentRemindersTable,
  SponsorshipPaymentsTable,
  SponsorshipRefundBankDetailsTable,
  SponsorshipSurplusRefundsTable,
} from './tables/sponsorship-deals.ts'
import type { InvoiceCountersTable, InvoicesTable } from './tables/invoices.ts'
import type { OutboxMessagesTable } from './tables/outbox-messages.ts'
import type { QuotesTable } from './tables/quotes.ts'
import type { PaymentRemindersTable } from './tables/payment-reminders.ts'
import type { ReadinessChecksTable } from './tables/readiness-checks.ts'
import type { WebhookDeliveriesTable } from './tables/webhook-deliveries.ts'
import type { RegistrationDelegatesTable } from './tables/registration-delegates.ts'
import type { RegistrationMailDataTable } from './tables/registration-mail-data.ts'
import type { RegistrationsTable } from './tables/registrations.ts'
import type { RefundBankDetailsTable, SurplusRefundsTable } from './tables/refunds-to-pay.ts'
import type { SubmissionKeysTable } from './tables/submission-keys.ts'
import type { TrainingRequestsTable } from './tables/training-requests.ts'
import type { WaitingListChangesTable, WaitingListEntriesTable } from './tables/waiting-list.ts'

export interface Database {
  discount_codes: DiscountCodesTable
  registration_discounts: RegistrationDiscountsTable
  sponsorship_deals: SponsorshipDealsTable
  sponsorship_invoices: SponsorshipInvoicesTable
  sponsorship_credit_notes: SponsorshipCreditNotesTable
  sponsorship_payments: SponsorshipPaymentsTable
  sponsorship_payment_reminders: SponsorshipPaymentRemindersTable
  sponsorship_surplus_refunds: SponsorshipSurplusRefundsTable
  sponsorship_refund_bank_details: SponsorshipRefundBankDetailsTable
  registrations: RegistrationsTable
  registration_delegates: RegistrationDelegatesTable
  registration_mail_data: RegistrationMailDataTable
  submission_keys: SubmissionKeysTable
  contact_enquiries: ContactEnquiriesTable
  training_requests: TrainingRequestsTable
  outbox_messages: OutboxMessagesTable
  invoice_counters: InvoiceCountersTable
  invoices: InvoicesTable
  payment_reminders: PaymentRemindersTable
  quotes: QuotesTable
  bank_payments: BankPaymentsTable
  cancellations: CancellationsTable
  cancellation_requests: CancellationRequestsTable
  credit_notes: CreditNotesTable
  refunds: RefundsTable
  bank_statement_mappings: BankStatementMappingsTable
  bank_statement_imports: BankStatementImportsTable
  bank_statement_lines: BankStatementLinesTable
  bank_statement_import_lines: BankStatementImportLinesTable
  enquiry_activity: EnquiryActivityTable
  readiness_checks: ReadinessChecksTable
  webhook_deliveries: WebhookDeliveriesTable
  surplus_refunds: SurplusRefundsTable
  refund_bank_details: RefundBankDetailsTable
  event_seats: EventSeatsTable
  waiting_list_entries: WaitingListEntriesTable
  waiting_list_changes: WaitingListChangesTable
  delegate_passes: DelegatePassesTable
  check_ins: CheckInsTable
  event_joining: EventJoiningTable
  online_attendance: OnlineAttendanceTable
  certificates: CertificatesTable
  event_cpd_hours: EventCpdHoursTable
  event_cpd_day_hours: EventCpdDayHoursTable
  joining_mails: JoiningMailsTable
  delegate_messages: DelegateMessagesTable
  back_office_settings: BackOfficeSettingsTable
  accounting_exported_documents: AccountingExportedDocumentsTable
}

export type SqlDialectName = 'sqlite' | 'postgres'

/** An open database: the Kysely instance, which SQL dialect it speaks, and how to close it. */
export interface CoreDatabase {
  kysely: Kysely<Database>
  dialect: SqlDialectName
  /**
   * Runs the writes of a request in a transaction. On SQLite, writes that arrive together share one commit (group
   * commit), each in its own savepoint; on PostgreSQL each is a transaction of its own. The unit must do its
   * queries through the transaction it is given: on SQLite a query through `kysely` would wait for that same batch.
   */
  writeTransaction: WriteTransactionRunner<Database>
  /**
   * Runs a single write statement: on SQLite through writeTransaction, sharing its group commit; on PostgreSQL as a
   * statement of its own, which commits by itself in one round trip instead of three (BEGIN, the statement, COMMIT).
   */
  writeStatement: <Result>(statement: (queries: Kysely<Database>) => Promise<Result>) => Promise<Result>
  /** The PostgreSQL connection pool, for the few stores that speak to pg directly (the shared rate limit). */
  postgresPool?: pg.Pool
  close(): Promise<void>
}
