import { formatRand } from '@events/pricing'
import type { BankDetails, SiteSettingsForMail } from '../catalog.ts'
import { invoiceAttachment } from '../invoice/issue-invoice.ts'
import { formatDate, formatEventDates } from './dates.ts'
import { html } from './html.ts'
import { detailsTable, detailsText, mailDocument, withOpeningSection } from './layout.ts'
import type { MailAttachment, OutgoingMail } from './outgoing-mail.ts'
import { creditNoteAttachments, positionStatement, type PaymentPosition } from './position.ts'

/** The registration a payment e-mail is about, as stored. */
export interface PaidRegistration {
  reference: string
  eventTitle: string
  eventStart: string
  eventEnd: string
  companyName: string
  /** The company's purchase order number; empty when it gave none. */
  purchaseOrderNumber: string
  email: string
  totalCents: number
  currency: string
  statusUrl: string
}

export interface PaymentReceiptContext {
  registration: PaidRegistration
  paidAt: Date
  paymentId: string
  invoiceNumber?: string | undefined
  /** A payment in the provider's test mode (or the sandbox): no card was charged. */
  testMode: boolean
  settings: SiteSettingsForMail
  /** How it was paid: by card unless said otherwise; a bank transfer's `paymentId` is its bank reference. */
  method?: 'card' | 'bank-transfer'
  /** The tax invoice to attach; its PDF is filled in when the message is sent. */
  invoiceAttachment?: MailAttachment | undefined
}

export interface PaymentProblemContext {
  registration: PaidRegistration
  /** What went wrong, for the organiser: fixed text chosen by the server. */
  problem: string
  receivedAmountCents: number | null
  receivedCurrency: string | null
  checkoutId: string
  paymentId: string | null
  webhookId: string
  organiserEmail: string
  settings: SiteSettingsForMail
}

function footerText(settings: SiteSettingsForMail): string {
  return [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
}

const paidAtFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Johannesburg', dateStyle: 'long', timeStyle: 'short' })

/** The registrant's receipt once the registration is paid in full: by card (the provider's webhook) or by bank transfer. */
export function paymentReceiptMail(context: PaymentReceiptContext): OutgoingMail {
  const { registration, settings } = context
  const subject = `Payment received: registration ${registration.reference}`
  const bankTransfer = context.method === 'bank-transfer'
  const rows: Array<[string, string]> = [
    ['Reference', registration.reference],
    ['Event', registration.eventTitle],
    ['Dates', formatEventDates(registration.eventStart, registration.eventEnd)],
    ['Company', registration.companyName],
    ...(registration.purchaseOrderNumber ? ([['Your reference', registration.purchaseOrderNumber]] as Array<[string, string]>) : []),
    ['Amount paid', formatRand(registration.totalCents)],
    ['Paid on', `${paidAtFormat.format(context.paidAt)} (SAST)`],
    [bankTransfer ? 'Bank reference' : 'Payment ID', context.paymentId],
    ...(context.invoiceNumber ? ([['Tax invoice', context.invoiceNumber]] as Array<[string, string]>) : []),
  ]
  const testNotice = context.testMode ? ' This was a test payment: no card was charged.' : ''
  const intro = `Thank you. We have received your ${bankTransfer ? 'bank transfer' : 'card payment'} for ${registration.eventTitle}; your registration is paid in full.${testNotice}`
  const statusLine = 'Your registration page (with the tax invoice to download):'
  return {
    to: [registration.email],
    subject,
    text: [intro, detailsText(rows), `${statusLine}\n${registration.statusUrl}`].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>${intro}</p>${detailsTable(rows)}<p>${statusLine}<br><a href="${registration.statusUrl}">${registration.statusUrl}</a></p>`,
      footerText(settings),
    ),
    ...(context.invoiceAttachment ? { attachments: [context.invoiceAttachment] } : {}),
  }
}

/** A receipt's tax invoice since corrected (correctInvoice): its number, and the stored invoice that replaced it. */
export interface CorrectedInvoice {
  credited: string
  current: { id: string; number: string }
}

/**
 * A receipt sent again after the registration changed (cancelled in whole or in part, money given or owed back, its
 * tax invoice corrected): where it stands on the day it is sent again first, then the receipt as it was sent, with the
 * current tax invoice attached in place of a corrected one and the credit notes beside it.
 */
export function receiptSentAgain(
  receipt: OutgoingMail,
  position: PaymentPosition,
  context: { reference: string; bankDetails: BankDetails; on: Date; correctedInvoice?: CorrectedInvoice | undefined },
): OutgoingMail {
  const statement = positionStatement(position, context.reference, context.bankDetails)
  const heading = `Where registration ${context.reference} stands on ${formatDate(context.on)}:`
  const corrected = context.correctedInvoice
  const correction = corrected
    ? `Tax invoice ${corrected.credited} is credited in full and replaced by tax invoice ${corrected.current.number} (attached); what you have paid counts against the new invoice.`
    : ''
  const below = 'Your receipt, as first sent:'
  const attachments = (receipt.attachments ?? []).map((attachment) => (corrected && attachment.invoiceId ? invoiceAttachment(corrected.current) : attachment))
  return {
    ...receipt,
    text: [heading, correction, statement.text].filter((part) => part !== '').join('\n') + `\n\n${below}\n\n${receipt.text}`,
    html: withOpeningSection(
      receipt.html,
      html`<p><strong>${heading}</strong></p>${correction ? html`<p>${correction}</p>` : ''}${statement.html}<p>${below}</p>`,
    ),
    attachments: [...attachments, ...creditNoteAttachments(position)],
  }
}

/** Tells the organiser about a payment that did not mark its registration paid (wrong amount, paid twice). */
export function paymentProblemMail(context: PaymentProblemContext): OutgoingMail {
  const { registration } = context
  const subject = `Payment needs attention: registration ${registration.reference}`
  const received =
    context.receivedAmountCents === null ? 'not stated' : `${formatRand(context.receivedAmountCents)} (${context.receivedCurrency ?? 'no currency'})`
  const rows: Array<[string, string]> = [
    ['Reference', registration.reference],
    ['Event', registration.eventTitle],
    ['Company', registration.companyName],
    ['Registrant e-mail', registration.email],
    ['Amount due', `${formatRand(registration.totalCents)} (${registration.currency})`],
    ['Amount received', received],
    ['Checkout ID', context.checkoutId],
    ['Payment ID', context.paymentId ?? 'not stated'],
    ['Webhook ID', context.webhookId],
  ]
  return {
    to: [context.organiserEmail],
    replyTo: registration.email,
    subject,
    text: `${context.problem}\n\n${detailsText(rows)}\n\nStatus page: ${registration.statusUrl}\n`,
    html: mailDocument(
      subject,
      html`<p>${context.problem}</p>${detailsTable(rows)}<p><a href="${registration.statusUrl}">Registration status page</a></p>`,
      footerText(context.settings),
    ),
  }
}
