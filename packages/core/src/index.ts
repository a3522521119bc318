export type { BankDetails, EventCatalog, RegistrationEvent, RegistrationPriceOption, SiteSettingsForMail, SponsorPackageTerms } from './catalog.ts'
export type { CoreConfig } from './config.ts'
export type { PaymentReturnOutcome, RegistrationKey, SiteLinks } from './site-links.ts'
export type { CoreDatabase, Database, SqlDialectName } from './db/database.ts'
export { isDatabaseFault, isDatabaseUnreachable } from './db/faults.ts'
export {
  DatabaseBehindError,
  DatabaseUnreachableError,
  openDatabase,
  postgresClientConfig,
  sqliteFileOf,
  type OpenDatabaseOptions,
} from './db/open-database.ts'
export { migrateToLatest } from './db/migrate-to-latest.ts'
export { renameRecordedMigrations } from './db/rename-recorded-migrations.ts'
export { openNoticeChannel, type NoticeChannel, type NoticeChannelOptions } from './db/notices.ts'
export { recordFirstDelivery } from './webhook-deliveries.ts'
export { backupDataDirectory, sqliteIntegrity, type DataBackup } from './db/backup.ts'
export { backupPostgres, restorePostgres, type PostgresBackup } from './db/pg-backup.ts'
export { CodedError, ValidationError, isValidationError, type ErrorCode } from './errors.ts'
export {
  HONEYPOT_FIELD,
  createEnquiryService,
  isHoneypotFilled,
  type EnquiryService,
  type EnquiryServiceOptions,
  type SubmissionAccepted,
} from './enquiries/service.ts'
export {
  CONTACT_INTERESTS,
  MAX_DELEGATES,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  TRAINING_KINDS,
  paymentMethodKeyOf,
  type ContactInterest,
  type PaymentMethod,
  type TrainingKind,
} from './submissions/choices.ts'
export { contactEnquirySchema, normaliseInterest, trainingRequestSchema, type ContactEnquiry, type TrainingRequest } from './submissions/enquiries.ts'
export type { FieldIssue, FieldIssueCode } from './submissions/fields.ts'
export { parseSubmission } from './submissions/parse.ts'
export type { RegistrationRow } from './db/tables/registrations.ts'
export { formatInvoiceNumber } from './invoice/invoice-number.ts'
export {
  overdueRegistrations,
  paymentRemindersOf,
  remindNow,
  remindNowSchema,
  sendDuePaymentReminders,
  type OverdueRegistration,
  type SentPaymentReminder,
} from './invoice/payment-reminders.ts'
export type { PaymentReminderKind } from './db/tables/payment-reminders.ts'
export { AGE_BAND_LABELS, ageingByBand, ageingRows, type Ageing } from './invoice/ageing.ts'
export {
  renderStatementPdf,
  sendStatement,
  statementFilename,
  statementOfAccount,
  type StatementEntry,
  type StatementOfAccount,
} from './invoice/statement-of-account.ts'
export { correctInvoice, invoiceCorrectionSchema, type InvoiceCorrection } from './invoice/correct-invoice.ts'
export {
  findQuote,
  QUOTATION_LINK_PARAM,
  quotationPrefill,
  quoteDownload,
  requestQuote,
  type FoundQuote,
  type IssuedQuote,
  type QuotationPrefill,
} from './quotes/quotes.ts'
export { eventCalendarFile } from './mail/calendar.ts'
export { formatEventDays } from './mail/dates.ts'
export type { MailAttachment, OutgoingMail } from './mail/outgoing-mail.ts'
export { paymentProblemMail, paymentReceiptMail, type PaidRegistration, type PaymentProblemContext, type PaymentReceiptContext } from './mail/payment-mails.ts'
export { enqueueMails, enqueueStaffMail, type QueuedMail } from './outbox/enqueue.ts'
export { outboxHealth, type OutboxHealth } from './outbox/health.ts'
export {
  staffInvitationMail,
  staffPasswordResetMail,
  staffSignInFailuresMail,
  staffCodeFailuresMail,
  staffNewDeviceMail,
  type StaffLinkMailContext,
  type StaffSignInFailuresMailContext,
} from './mail/staff-mails.ts'
export { outgoingMailOf, type StoredMail } from './outbox/stored-mail.ts'
export { createMailTransport, type MailTransport, type MailTransportOptions } from './mail/transport.ts'
export {
  GIVE_UP_AFTER_MS,
  deliverDueMessages,
  retryDelayMs,
  startOutboxWorker,
  type DeliveryOptions,
  type DeliveryReport,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from './outbox/worker.ts'
export {
  createRateLimiter,
  createSharedRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimiterOptions,
  type SharedRateLimiterOptions,
} from './rate-limit.ts'
export { REFERENCE_ALPHABET, REFERENCE_LENGTH, generateReference, normaliseReference } from './registration/reference.ts'
export {
  CURRENCY,
  registrationStatusJson,
  paysByCard,
  registrantAddressErased,
  type CreateRegistrationResult,
  type InvoiceDownload,
  type RegistrationContext,
  type RegistrationDetails,
  type RegistrationReceipt,
  type RegistrationStatus,
  type RegistrationStatusJson,
} from './registration/model.ts'
export { DUPLICATE_WINDOW_MS, createRegistration, type CreateRegistrationOptions } from './registration/commands.ts'
export {
  FIELD_LIMITS,
  companyDetailsSchema,
  delegateSchema,
  registrationSchemaFor,
  validateRegistration,
  type CompanyDetails,
  type DelegateSubmission,
  type RegistrationFormValues,
  type RegistrationSubmission,
} from './submissions/registration.ts'
export { isEmailAddress, normaliseBankReference, singleLine } from './validation/fields.ts'
export { startCore, type Core, type DeferredOutboxWorker, type StartCoreOptions } from './core.ts'
export { markRegistrationPaid, paymentStateOf, type PaymentState } from './registration/payment-state.ts'
export { professionalRegistrationNumbers, saveProfessionalRegistrationNumber } from './registration/professional-registration-number.ts'
export { registrationStatement, type RegistrationStatement, type StatementLine, type StatementLineKind } from './registration/statement.ts'
export {
  findRegistrationById,
  findRegistrationByReferenceAndSecret,
  getCreditNotePdf,
  getInvoicePdf,
  getRegistrationByReferenceAndSecret,
  sameSecret,
} from './registration/queries.ts'
export {
  cardChargeStanding,
  recordCardPayment,
  type CardChargeStanding,
  type CardPaymentInput,
  type CardPaymentOutcome,
  type RecordedCardPayment,
} from './registration/card-payment.ts'
export { businessClock, wallClock, type ActingStaff, type BackOfficeContext, type CardPaymentFacts } from './backoffice/context.ts'
export {
  BACK_OFFICE_ERROR_CODES,
  BackOfficeError,
  INPUT_PROBLEMS,
  isBackOfficeError,
  MISSING_THINGS,
  type BackOfficeErrorCode,
  type InputProblem,
  type MissingThing,
  type RefusalDetails,
} from './backoffice/errors.ts'
export {
  requireRole,
  roleAllows,
  runInCommandTransaction,
  STAFF_ROLE_ORDER,
  staffCommand,
  type AuditedChange,
  type AuditRow,
  type AuditWriter,
  type CommandChange,
  type CommandHandler,
  type CommandOutcome,
  type StaffActor,
  type StaffCommand,
  type StaffCommandContext,
  type StaffCommandOptions,
  type StaffRoleName,
} from './backoffice/command.ts'
export { dayIn, delegateNumber, fieldRefusal, isoDay, optionalPercentage, randAmount, referenceField } from './backoffice/fields.ts'
export {
  bankTransferSchema,
  recordBankTransfer,
  type BankPayment,
  type BankTransferForm,
  type BankTransferInput,
  type RecordedBankTransfer,
} from './backoffice/bank-transfers.ts'
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  REGISTRATION_LIST_STATUSES,
  REGISTRATION_STATUSES,
  listRegistrations,
  type RegistrationListPage,
  type RegistrationListQuery,
  type RegistrationListRow,
  type RegistrationListStatus,
} from './backoffice/registrations-list.ts'
export { attendanceRegisterPdf } from './backoffice/attendance-register-pdf.ts'
export {
  delegateList,
  delegateListCsv,
  delegateListEvents,
  delegateListXlsx,
  type DelegateList,
  type DelegateListEvent,
  type DelegateListRow,
} from './backoffice/delegate-list.ts'
export {
  RESENDABLE_MAILS,
  listFailedMessages,
  listUncertainMessages,
  resendRegistrationMail,
  resendSchema,
  retrySchema,
  retryFailedMessage,
  settleUncertainMessage,
  type FailedMessage,
  type QueuedAgain,
  type ResendableMail,
  type RetriedMessage,
} from './backoffice/emails.ts'
export {
  changeDelegate,
  companyCorrectionSchema,
  correctCompanyDetails,
  delegateChangeSchema,
  type CompanyChange,
  type CompanyCorrectionInput,
  type DelegateChange,
  type DelegateChangeInput,
} from './backoffice/registration-changes.ts'
export { dashboard, eventSeatFigures, type Dashboard, type EventFigures, type EventSeatFigures } from './backoffice/dashboard.ts'
export { getRegistrationDetail, registrationInvoicePdf, type RegistrationDetail, type RegistrationEmail } from './backoffice/registration-detail.ts'
export { DataDirectoryError } from './private-files.ts'
export {
  cancelRegistration,
  cancellationProposal,
  cancellationSchema,
  recordRefundPaidOut,
  refundPayoutSchema,
  type CancellationDelegate,
  type CancellationInput,
  type CancellationOutcome,
  type CancellationProposal,
  type CancellationSummary,
  type RecordedRefundPayout,
  type RefundPayoutInput,
  type RefundSummary,
} from './cancellation/cancel.ts'
export {
  cancellationDecisionSchema,
  cancellationRequests,
  decideCancellationRequest,
  requestCancellation,
  type CancellationDecision,
  type CancellationRequest,
} from './cancellation/requests.ts'
export { creditNoteDownloadByReference, formatCreditNoteNumber, renderStoredCreditNote } from './cancellation/credit-note.ts'
export { isWorkingDay, proposedCancellationFee, publicHolidayOn, type ProposedCancellationFee } from './cancellation/fee-rules.ts'
export type { RefundRow } from './db/tables/cancellations.ts'
export {
  assignStatementLine,
  confirmStatementLines,
  getStatementImport,
  importBankStatement,
  previewBankStatement,
  type StatementPreview,
  listStatementImports,
  listStatementMappings,
  dismissStatementLine,
  splitStatementLine,
  statementLineDismissalSchema,
  statementLineSplitSchema,
  statementLines,
  type ConfirmedLine,
  type StatementLineDismissal,
  type StatementLineSplit,
  type StatementImport,
  type StatementLineState,
  type PaymentSuggestion,
  type StatementLineView,
  type StatementMapping,
  type StatementMappingInput,
  type StatementUpload,
} from './backoffice/bank-statements/bank-statements.ts'
export { STATEMENT_DATE_FORMATS, STATEMENT_DELIMITERS } from './backoffice/bank-statements/parse-csv.ts'
export { BANK_PRESET_CHOICES, BANK_PRESETS, isBankPresetId, type BankPresetId } from './backoffice/bank-statements/bank-presets.ts'
export {
  ENQUIRY_STATUSES,
  addEnquiryNote,
  enquiryNoteSchema,
  enquiryReplySchema,
  enquiryUpdateSchema,
  getEnquiry,
  listEnquiries,
  replyToEnquiry,
  updateEnquiry,
  type EnquiryUpdateInput,
  type EnquiryActivity,
  type EnquiryChange,
  type EnquiryDetail,
  type EnquiryKind,
  type EnquiryStatus,
  type EnquirySummary,
} from './backoffice/enquiries-inbox.ts'
export {
  anonymiseExpiredPersonalData,
  erasePersonalData,
  erasureSchema,
  findPersonalData,
  startRetentionJob,
  type ErasureResult,
  type PersonalDataReport,
  type RetentionContext,
  type RetentionJob,
  type RetentionResult,
} from './backoffice/personal-data.ts'
export { findCardRefund, recordCardRefundAnswer, type CardRefund, type CardRefundState } from './cancellation/card-refunds.ts'
export { cardRefundMail } from './cancellation/cancellation-mail.ts'
export {
  eventFinanceReport,
  eventFinanceXlsx,
  vatPeriodSchema,
  vatRegister,
  vatRegisterCsv,
  vatRegisterXlsx,
  type EventFinance,
  type EventFinanceReport,
  type VatPeriod,
  type VatRegister,
  type VatRegisterEntry,
} from './backoffice/finance-reports.ts'
export {
  ACCOUNTING_FILES,
  ACCOUNTING_PACKAGES,
  accountingSettings,
  exportAccounts,
  saveAccountingSettings,
  type AccountingExport,
  type AccountingFile,
  type AccountingPackage,
  type AccountingSettings,
} from './backoffice/accounting-export.ts'
export {
  recordRefundPayout,
  refundBankDetailsSchema,
  refundListPayoutSchema,
  refundsPaidOut,
  refundsToPay,
  refundsToPayCsv,
  saveRefundBankDetails,
  surplusRefundsOf,
  type RefundBankDetails,
  type RefundBankDetailsInput,
  type RefundPaidOut,
  type RecordedListPayout,
  type RefundListPayoutInput,
  type RefundToPay,
} from './backoffice/refunds-to-pay.ts'
export {
  FEW_SEATS_LEFT,
  capacityOf,
  seatKindOf,
  seatStatusOf,
  seatsLeftOf,
  seatsTaken,
  seatsTakenAt,
  visibleSeatsKey,
  type EventCapacity,
  type SeatCounts,
  type SeatKind,
  type SeatsLeft,
  type SeatStatus,
} from './seats/seats.ts'
export {
  DEFAULT_WAITING_LIST_OFFER_HOURS,
  MAX_WAITING_LIST_SEATS,
  WAITING_LIST_OFFER_PARAM,
  joinWaitingList,
  offerWaitingListSeats,
  removeWaitingListEntry,
  sweepWaitingLists,
  waitingListLengths,
  waitingListOf,
  waitingListOfferOf,
  waitingListSchema,
  type WaitingListEntry,
  type WaitingListOffer,
  type WaitingListPlace,
  type WaitingListState,
} from './seats/waiting-list.ts'
export { passPage, passQrPath, registrationPasses, type DelegatePass, type PassPage, type QrPath } from './event-days/passes.ts'
export { formatPassCode, normalisePassCode } from './event-days/pass-codes.ts'
export {
  checkInCounts,
  checkInDelegate,
  checkInScreen,
  doorList,
  doorToday,
  recordDeparture,
  undoCheckIn,
  type CheckInCounts,
  type DoorListEntry,
  type CheckInOutcome,
  type CheckInScreen,
  type DoorDelegate,
} from './event-days/check-in.ts'
export {
  joiningScreen,
  joinMeeting,
  joinPage,
  saveJoiningInstructions,
  type JoiningInstructions,
  type JoiningScreen,
  type JoinPage,
} from './event-days/joining.ts'
export {
  certificatePdf,
  certificateFilename,
  certificatesOfRegistration,
  certificatesScreen,
  certificatesZip,
  cpdDayHoursSchema,
  certificateNumberSchema,
  issueCertificates,
  issueCertificatesSchema,
  issueCertificatesOfPaidRegistration,
  issueDueCertificates,
  registrationCertificates,
  resendCertificate,
  revokeCertificate,
  saveCpdDayHours,
  verifyCertificate,
  type Certificate,
  type CertificatesScreen,
  type CertificateState,
} from './event-days/certificates.ts'
export {
  DEFAULT_JOINING_MAIL_DAYS_BEFORE,
  joiningMailsOf,
  joiningRecipientsOf,
  resendJoiningMail,
  sendDueJoiningMails,
  startJoiningMails,
  type SentJoiningMail,
} from './event-days/joining-mails.ts'
export {
  ATTENDANCE_FILTERS,
  delegateMessagesOf,
  PAYMENT_FILTERS,
  previewDelegateMessage,
  sendDelegateMessage,
  type MessageFilters,
  type MessagePreview,
  type SentDelegateMessage,
} from './event-days/messages.ts'
export {
  checkDiscountCode,
  DISCOUNT_CODE_FIELD,
  discountTermsOf,
  findDiscountCode,
  previewDiscountCode,
  type DiscountTerms,
  type DiscountUsed,
  discountCodeOf,
  discountCodeUses,
  MAX_DISCOUNT_CODE_LENGTH,
  normaliseDiscountCode,
  type DiscountCodeRefusal,
} from './discounts/codes.ts'
export { createDiscountCode, extendDiscountCode, listDiscountCodes, voidDiscountCode, type DiscountCodeSummary } from './discounts/staff-codes.ts'
export type { DiscountCodeRow, DiscountKind } from './db/tables/discount-codes.ts'
export {
  approveSponsorshipDeal,
  cancelSponsorshipDeal,
  dealInvoicePdf,
  listSponsorshipDeals,
  newDealDefaults,
  recordDealBenefits,
  recordSponsorshipDeal,
  resendDealCodes,
  wordCount,
  type SponsorshipDealSummary,
} from './sponsorship/deals.ts'
export type { SponsorshipDealRow } from './db/tables/sponsorship-deals.ts'
export { requestCancellationByRegistrant, selfServiceOf, substituteDelegateByRegistrant, type SelfService } from './backoffice/self-service.ts'
