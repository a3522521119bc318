import type { IssuedInvoice } from '../invoice/issued-invoices.ts'
import { formatAmount } from '@events/pricing'
import type { BackOfficeContext } from '../backoffice/context.ts'
import type { DiscountUsed } from '../discounts/codes.ts'
import type { RegistrationRow, RegistrationStatus } from '../db/tables/registrations.ts'
import type { RegistrationKey } from '../site-links.ts'
import type { PaymentMethod } from '../submissions/choices.ts'
import type { CompanyDetails, RegisteredDelegate } from '../submissions/registration.ts'

export const CURRENCY = 'ZAR'
export type { RegistrationStatus } from '../db/tables/registrations.ts'

/** The answer to a registration, with the secret of its private links (the site makes the links). */
export interface RegistrationReceipt extends RegistrationKey {
  total: string
  totalCents: number
  currency: string
  status: RegistrationStatus
}

export interface CreateRegistrationResult {
  receipt: RegistrationReceipt
  /** True when this submission repeated an earlier one and no new registration was made. */
  replayed: boolean
  paymentMethod: PaymentMethod
}

export interface RegistrationDetails extends CompanyDetails, RegistrationKey {
  status: RegistrationStatus
  event: StoredEvent
  code: string
  attendanceOption: { key: string; label: string }
  paymentMethod: PaymentMethod
  /** Each delegate, saying whether they attend at the venue or online. */
  delegates: RegisteredDelegate[]
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
  /** The tax invoice's number, once issued. */
  invoice?: { number: string }
  /** Every tax invoice it was issued, oldest first, the replaced ones naming what replaced them. */
  invoices: IssuedInvoice[]
  /** The numbers of the credit notes of its cancellations, oldest first. */
  creditNotes: Array<{ number: string }>
  /** When the whole registration was cancelled. */
  cancelledAt: string | null
  /** The discount code it used, if any: a sponsor's complimentary seat is marked as such. */
  discount?: DiscountUsed | undefined
}

/** A stored tax invoice, ready to be sent as a download. */
export interface InvoiceDownload {
  filename: string
  pdf: Buffer
}

/**
 * What the registration commands and queries need: the back office's database, catalog, site links and clocks (the
 * business clock decides the registration rules), where registrations are reported, and who is told of new ones.
 */
export interface RegistrationContext extends BackOfficeContext {
  /** Where registrations are reported; defaults to the contact e-mail in the site settings. */
  organiserEmail?: string | undefined
  generateReference?: () => string
  /** Told of each new registration once it is stored and its e-mails queued (not of a repeated submission). */
  onRegistrationCreated?: (result: CreateRegistrationResult) => void
}

/**
 * Whether the registrant's address was erased at their request (erasePersonalData): nothing is written to them any more,
 * neither receipts nor credit notes, and the back office cannot send them an e-mail again.
 */
export function registrantAddressErased(registration: { email: string }): boolean {
  return registration.email === ''
}

/** Whether a registration is paid by card, and so has a card payment page besides its status page. */
export function paysByCard(paymentMethod: PaymentMethod): boolean {
  return paymentMethod === 'card'
}

/** The registration's answer: its reference and secret, total and status. */
export function receiptOf(row: Pick<RegistrationRow, 'reference' | 'secret' | 'total_cents' | 'currency' | 'status'>): RegistrationReceipt {
  return {
    reference: row.reference,
    secret: row.secret,
    total: formatAmount(row.total_cents),
    totalCents: row.total_cents,
    currency: row.currency,
    status: row.status,
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
export function storedEventOf(
  row: Pick<RegistrationRow, 'event_slug' | 'event_kind' | 'event_title' | 'event_start' | 'event_end' | 'venue_name' | 'venue_address'>,
): StoredEvent {
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
