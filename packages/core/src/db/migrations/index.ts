import type { Migration, MigrationProvider } from 'kysely/migration'
import * as initial from './2025-06-01-initial.ts'
import * as paymentsAndInvoices from './2026-11-22-payments-and-invoices.ts'
import * as renderInvoicesOnDelivery from './2026-11-22-render-invoices-on-delivery.ts'
import * as bankPayments from './2026-11-23-bank-payments.ts'
import * as formRateLimits from './2026-11-23-form-rate-limits.ts'
import * as registrationListIndexes from './2026-11-23-registration-list-indexes.ts'
import * as registrationMailData from './2026-11-23-registration-mail-data.ts'
import * as bankStatements from './2026-11-24-bank-statements.ts'
import * as cancellations from './2026-11-24-cancellations.ts'
import * as enquiryInbox from './2026-11-24-enquiry-inbox.ts'
import * as registrationsWithoutSubject from './2026-11-24-registrations-without-subject.ts'
import * as cancellationsWithoutDelegateCount from './2026-11-24T01-cancellations-without-delegate-count.ts'
import * as paymentMethodKeys from './2026-11-24T02-payment-method-keys.ts'
import * as registrationEventIds from './2026-11-24T03-registration-event-ids.ts'
import * as cancellationRequests from './2026-11-26T01-cancellation-requests.ts'
import * as eventSeats from './2026-11-26T02-event-seats.ts'
import * as readinessChecks from './2026-11-26T03-readiness-checks.ts'
import * as refundsToPayOut from './2026-11-26T04-refunds-to-pay-out.ts'
import * as statementReconciliation from './2026-11-26T05-statement-reconciliation.ts'
import * as webhookDeliveries from './2026-11-27-webhook-deliveries.ts'
import * as invoiceCorrections from './2026-11-27T01-invoice-corrections.ts'
import * as paymentReminders from './2026-11-27T02-payment-reminders.ts'
import * as purchaseOrderNumbers from './2026-11-27T03-purchase-order-numbers.ts'
import * as quotes from './2026-11-27T04-quotes.ts'
import * as sentMailRecords from './2026-11-27T05-sent-mail-records.ts'
import * as checkIns from './2026-11-27T06-check-ins.ts'
import * as delegatePasses from './2026-11-27T07-delegate-passes.ts'
import * as joiningInstructions from './2026-11-27T08-joining-instructions.ts'
import * as waitingList from './2026-11-27T09-waiting-list.ts'
import * as certificates from './2026-11-27T10-certificates.ts'
import * as delegateMessages from './2026-11-27T11-delegate-messages.ts'
import * as joiningMails from './2026-11-27T12-joining-mails.ts'
import * as checkInScanIds from './2026-11-28-check-in-scan-ids.ts'
import * as checkInDepartures from './2026-11-29-check-in-departures.ts'
import * as discountCodes from './2026-11-28-discount-codes.ts'
import * as sponsorshipDeals from './2026-11-28-sponsorship-deals.ts'
import * as statementMappingColumns from './2026-11-28-statement-mapping-columns.ts'
import * as accountingExports from './2026-11-29-accounting-exports.ts'
import * as registrationQuotation from './2026-11-29-registration-quotation.ts'
import * as sponsorshipPayments from './2026-11-29-sponsorship-payments.ts'
import * as certificateDetailsAndDayHours from './2026-11-29T10-certificate-details-and-day-hours.ts'
import * as professionalRegistrationNumbers from './2026-11-29T20-professional-registration-numbers.ts'
import * as sponsorshipRemindersAndSurplus from './2026-11-29T30-sponsorship-reminders-and-surplus.ts'
import * as outboxSending from './2026-11-29T70-outbox-sending.ts'
import * as delegateAttendance from './2026-11-29T80-delegate-attendance.ts'

// Listed statically (not read from a folder) so the migrations travel with the code; never edit one that has landed.
// Listed in name order, the order Kysely runs them in: a new one is named for the day it is written
// (docs/operations.md, "Naming a migration") and goes at the end.
const migrations: Record<string, Migration> = {
  '2025-06-01-initial': initial,
  '2026-11-22-payments-and-invoices': paymentsAndInvoices,
  '2026-11-22-render-invoices-on-delivery': renderInvoicesOnDelivery,
  '2026-11-23-bank-payments': bankPayments,
  '2026-11-23-form-rate-limits': formRateLimits,
  '2026-11-23-registration-list-indexes': registrationListIndexes,
  '2026-11-23-registration-mail-data': registrationMailData,
  '2026-11-24-bank-statements': bankStatements,
  '2026-11-24-cancellations': cancellations,
  '2026-11-24-enquiry-inbox': enquiryInbox,
  '2026-11-24-registrations-without-subject': registrationsWithoutSubject,
  '2026-11-24T01-cancellations-without-delegate-count': cancellationsWithoutDelegateCount,
  '2026-11-24T02-payment-method-keys': paymentMethodKeys,
  '2026-11-24T03-registration-event-ids': registrationEventIds,
  '2026-11-26T01-cancellation-requests': cancellationRequests,
  '2026-11-26T02-event-seats': eventSeats,
  '2026-11-26T03-readiness-checks': readinessChecks,
  '2026-11-26T04-refunds-to-pay-out': refundsToPayOut,
  '2026-11-26T05-statement-reconciliation': statementReconciliation,
  '2026-11-27-webhook-deliveries': webhookDeliveries,
  '2026-11-27T01-invoice-corrections': invoiceCorrections,
  '2026-11-27T02-payment-reminders': paymentReminders,
  '2026-11-27T03-purchase-order-numbers': purchaseOrderNumbers,
  '2026-11-27T04-quotes': quotes,
  '2026-11-27T05-sent-mail-records': sentMailRecords,
  '2026-11-27T06-check-ins': checkIns,
  '2026-11-27T07-delegate-passes': delegatePasses,
  '2026-11-27T08-joining-instructions': joiningInstructions,
  '2026-11-27T09-waiting-list': waitingList,
  '2026-11-27T10-certificates': certificates,
  '2026-11-27T11-delegate-messages': delegateMessages,
  '2026-11-27T12-joining-mails': joiningMails,
  '2026-11-28-check-in-scan-ids': checkInScanIds,
  '2026-11-28-discount-codes': discountCodes,
  '2026-11-28-sponsorship-deals': sponsorshipDeals,
  '2026-11-28-statement-mapping-columns': statementMappingColumns,
  '2026-11-29-accounting-exports': accountingExports,
  '2026-11-29-check-in-departures': checkInDepartures,
  '2026-11-29-registration-quotation': registrationQuotation,
  '2026-11-29-sponsorship-payments': sponsorshipPayments,
  '2026-11-29T10-certificate-details-and-day-hours': certificateDetailsAndDayHours,
  '2026-11-29T20-professional-registration-numbers': professionalRegistrationNumbers,
  '2026-11-29T30-sponsorship-reminders-and-surplus': sponsorshipRemindersAndSurplus,
  '2026-11-29T70-outbox-sending': outboxSending,
  '2026-11-29T80-delegate-attendance': delegateAttendance,
}

/** The core's migrations, in name order. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}

/**
 * Migrations that were named for days after the one they were written on, and were renamed so that a migration
 * written today sorts after them: old name to new name, in the same order, so a database that ran them under their
 * old names has its record renamed before the migrator reads it (renameRecordedMigrations).
 */
export const renamedMigrations: Readonly<Record<string, string>> = {
  '2026-11-25-cancellations-without-delegate-count': '2026-11-24T01-cancellations-without-delegate-count',
  '2026-11-25-payment-method-keys': '2026-11-24T02-payment-method-keys',
  '2026-11-25-registration-event-ids': '2026-11-24T03-registration-event-ids',
  '2026-11-27-cancellation-requests': '2026-11-26T01-cancellation-requests',
  '2026-11-27-event-seats': '2026-11-26T02-event-seats',
  '2026-11-27-readiness-checks': '2026-11-26T03-readiness-checks',
  '2026-11-27-refunds-to-pay-out': '2026-11-26T04-refunds-to-pay-out',
  '2026-11-27-statement-reconciliation': '2026-11-26T05-statement-reconciliation',
  '2026-11-28-invoice-corrections': '2026-11-27T01-invoice-corrections',
  '2026-11-28-payment-reminders': '2026-11-27T02-payment-reminders',
  '2026-11-28-purchase-order-numbers': '2026-11-27T03-purchase-order-numbers',
  '2026-11-28-quotes': '2026-11-27T04-quotes',
  '2026-11-28-sent-mail-records': '2026-11-27T05-sent-mail-records',
  '2026-11-29-check-ins': '2026-11-27T06-check-ins',
  '2026-11-29-delegate-passes': '2026-11-27T07-delegate-passes',
  '2026-11-29-joining-instructions': '2026-11-27T08-joining-instructions',
  '2026-11-29-waiting-list': '2026-11-27T09-waiting-list',
  '2026-11-30-certificates': '2026-11-27T10-certificates',
  '2026-11-30-delegate-messages': '2026-11-27T11-delegate-messages',
  '2026-11-30-joining-mails': '2026-11-27T12-joining-mails',
}
