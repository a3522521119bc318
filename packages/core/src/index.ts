export type { BankDetails, EventCatalog, RegistrationEvent, RegistrationPriceOption, SiteSettingsForMail } from './catalog.ts'
export { parseSiteDate, readCoreConfig, type CoreConfig } from './config.ts'
export type { CoreDatabase, Database, SqlDialectName } from './db/database.ts'
export { openDatabase, type OpenDatabaseOptions } from './db/open-database.ts'
export {
  ValidationError,
  errorBody,
  errorMessage,
  errorStatus,
  isValidationError,
  type ErrorBody,
  type ErrorCode,
} from './errors.ts'
export {
  CONTACT_INTERESTS,
  HONEYPOT_FIELD,
  TRAINING_KINDS,
  TRAINING_REQUIRED_MESSAGES,
  createEnquiryService,
  normaliseInterest,
  type ContactInterest,
  type EnquiryService,
  type EnquiryServiceOptions,
  type SubmissionAccepted,
  type TrainingKind,
} from './enquiries/service.ts'
export type { WebhookOutcome } from './db/tables/payment-webhooks.ts'
export type { RegistrationRow } from './db/tables/registrations.ts'
export { formatInvoiceNumber } from './invoice/invoice-number.ts'
export { eventCalendarFile } from './mail/calendar.ts'
export type { MailAttachment, OutgoingMail } from './mail/outgoing-mail.ts'
export {
  paymentProblemMail,
  paymentReceiptMail,
  type PaidRegistration,
  type PaymentProblemContext,
  type PaymentReceiptContext,
} from './mail/payment-mails.ts'
export { enqueueMails, type QueuedMail } from './outbox/enqueue.ts'
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
export { createRateLimiter, type RateLimitDecision, type RateLimiter, type RateLimiterOptions } from './rate-limit.ts'
export { REFERENCE_ALPHABET, REFERENCE_LENGTH, generateReference, normaliseReference } from './registration/reference.ts'
export {
  CURRENCY,
  DUPLICATE_WINDOW_MS,
  createRegistrationService,
  registrationStatusJson,
  registrationStatusUrl,
  sameSecret,
  type CreateRegistrationOptions,
  type InvoiceDownload,
  type CreateRegistrationResult,
  type RegistrationDetails,
  type RegistrationReceipt,
  type RegistrationService,
  type RegistrationServiceOptions,
  type RegistrationStatus,
  type RegistrationStatusJson,
} from './registration/service.ts'
export { FIELD_LIMITS, MAX_DELEGATES, PAYMENT_METHODS, validateRegistration, type PaymentMethod } from './registration/validate.ts'
export { isEmailAddress } from './validation/fields.ts'
export { startCore, type Core, type StartCoreOptions } from './core.ts'
