import { formatAmount } from '@events/pricing'
import type { BackOfficeContext } from '../backoffice/context.ts'
import type { RegistrationRow, RegistrationStatus } from '../db/tables/registrations.ts'
import type { PaymentMethod } from '../submissions/choices.ts'
import type { CompanyDetails, DelegateSubmission } from '../submissions/registration.ts'

export const CURRENCY = 'ZAR'
export type { RegistrationStatus } from '../db/tables/registrations.ts'

/** The answer to a registration: the 201 body. */
export interface RegistrationReceipt {
  reference: string
  total: string
  totalCents: number
  currency: string
  status: RegistrationStatus
  statusUrl: string
  paymentUrl?: string
}

export interface CreateRegistrationResult {
  receipt: RegistrationReceipt
  /** True when this submission repeated an earlier one and no new registration was made. */
  replayed: boolean
  paymentMethod: PaymentMethod
}

export interface RegistrationDetails extends CompanyDetails {
  reference: string
  status: RegistrationStatus
  event: StoredEvent
  code: string
  attendanceOption: { key: string; label: string }
  paymentMethod: PaymentMethod
  delegates: DelegateSubmission[]
  subtotalCents: number
  vatCents: number
  totalCents: number
  total: string
  /** What has been received so far (bank transfers, or the whole total once paid) and what remains to pay. */
  paidCents: number
  outstandingCents: number
  currency: string
  createdAt: string
  paidAt: string | null
  statusUrl: string
  paymentUrl?: string
  /** The tax invoice: its number and where the registrant downloads it. */
  invoice?: { number: string; url: string }
  /** The credit notes of its cancellations, oldest first, and where the registrant downloads them. */
  creditNotes: Array<{ number: string; url: string }>
  /** When the whole registration was cancelled. */
  cancelledAt: string | null
}

/** A stored tax invoice, ready to be sent as a download. */
export interface InvoiceDownload {
  filename: string
  pdf: Buffer
}

/**
 * What the registration commands and queries need: the back office's database, catalog, site address and clocks (the
 * business clock decides the registration rules), where registrations are reported, and who is told of new ones.
 */
export interface RegistrationContext extends BackOfficeContext {
  /** Where registrations are reported; defaults to the contact e-mail in the site settings. */
  organiserEmail?: string | undefined
  generateReference?: () => string
  /** Told of each new registration once it is stored and its e-mails queued (not of a repeated submission). */
  onRegistrationCreated?: (result: CreateRegistrationResult) => void
}

/** The private status page of a registration: {siteUrl}/registrations/{reference}/{secret}. */
export function registrationStatusUrl(siteUrl: string, reference: string, secret: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/registrations/${reference}/${secret}`
}

/** The registration's answer with its private links: the status page, and the card payment page when paid by card. */
export function receiptOf(
  siteUrl: string,
  row: Pick<RegistrationRow, 'reference' | 'secret' | 'total_cents' | 'currency' | 'status' | 'payment_method'>,
): RegistrationReceipt {
  const statusUrl = registrationStatusUrl(siteUrl, row.reference, row.secret)
  return {
    reference: row.reference,
    total: formatAmount(row.total_cents),
    totalCents: row.total_cents,
    currency: row.currency,
    status: row.status,
    statusUrl,
    ...(row.payment_method === 'card' ? { paymentUrl: `${statusUrl}/pay` } : {}),
  }
}

export interface RegistrationStatusJson {
  reference: string
  status: RegistrationStatus
  event: RegistrationDetails['event']
  total: string
  totalCents: number
  paidCents: number
  outstandingCents: number
  currency: string
  paymentMethod: PaymentMethod
  delegates: RegistrationDetails['delegates']
}


/** The event as a registration stored it when it was made: later edits of the event do not change it. */
export interface StoredEvent {
  slug: string
  kind: string
  title: string
  start: string
  end: string
  venue: { name: string; address: string }
}

/** A registration row's copy of its event. */
export function storedEventOf(row: Pick<RegistrationRow, 'event_slug' | 'event_kind' | 'event_title' | 'event_start' | 'event_end' | 'venue_name' | 'venue_address'>): StoredEvent {
  return {
    slug: row.event_slug,
    kind: row.event_kind,
    title: row.event_title,
    start: row.event_start,
    end: row.event_end,
    venue: { name: row.venue_name, address: row.venue_address },
  }
}
/** The JSON the private status URL answers with (Accept: application/json). */
export function registrationStatusJson(details: RegistrationDetails): RegistrationStatusJson {
  return {
    reference: details.reference,
    status: details.status,
    event: details.event,
    total: details.total,
    totalCents: details.totalCents,
    paidCents: details.paidCents,
    outstandingCents: details.outstandingCents,
    currency: details.currency,
    paymentMethod: details.paymentMethod,
    delegates: details.delegates,
  }
}

