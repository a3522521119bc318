import { formatRand } from '@events/pricing'
import { bankDetailRows, type BankDetails, type SiteSettingsForMail } from '../catalog.ts'
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
  /** When a card payment was made, by the business clock. */
  paidAt: Date
  paymentId: string
  invoiceNumber?: string | undefined
  /** A payment in the provider's test mode (or the sandbox): no card was charged. */
  testMode: boolean
  settings: SiteSettingsForMail
  /** The tax invoice to attach; its PDF is filled in when the message is sent. */
  invoiceAttachment?: MailAttachment | undefined
}

/** A bank transfer as it arrived, and what it did to its registration. */
interface ReceivedTransfer {
  amountCents: number
  /** The date the bank statement shows, YYYY-MM-DD. */
  receivedOn: string
  /** The transfer as the bank describes it: the statement line's description, or the bank reference staff typed. */
  bankDescription: string
  /** What was outstanding before it and is now settled (all of it for a receipt, the amount received for a part payment). */
  settledCents: number
  /** What is still outstanding after it; 0 when paid in full. */
  remainingCents: number
  /** What it paid beyond what was owed: owed back to the registrant. */
  surplusCents: number
}

export interface TransferMailContext {
  registration: PaidRegistration
  transfer: ReceivedTransfer
  invoiceNumber?: string | undefined
  settings: SiteSettingsForMail
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

function registrationRows(registration: PaidRegistration): Array<[string, string]> {
  return [
    ['Reference', registration.reference],
    ['Event', registration.eventTitle],
    ['Dates', formatEventDates(registration.eventStart, registration.eventEnd)],
    ['Company', registration.companyName],
    ...(registration.purchaseOrderNumber ? ([['Your reference', registration.purchaseOrderNumber]] as Array<[string, string]>) : []),
  ]
}

function receiptMessage(
  context: { registration: PaidRegistration; settings: SiteSettingsForMail; invoiceAttachment?: MailAttachment | undefined },
  subject: string,
  paragraphs: readonly string[],
  rows: Array<[string, string]>,
  paymentRows: Array<[string, string]> = [],
): OutgoingMail {
  const { registration } = context
  const statusLine = 'Your registration page (with the tax invoice to download):'
  const [intro = '', ...after] = paragraphs
  const payment = paymentRows.length > 0
  return {
    to: [registration.email],
    subject,
    text: [intro, detailsText(rows), ...after, ...(payment ? [detailsText(paymentRows)] : []), `${statusLine}\n${registration.statusUrl}`].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>${intro}</p>${detailsTable(rows)}${after.map((paragraph) => html`<p>${paragraph}</p>`)}${payment ? detailsTable(paymentRows) : ''}<p>${statusLine}<br><a href="${registration.statusUrl}">${registration.statusUrl}</a></p>`,
      footerText(context.settings),
    ),
    ...(context.invoiceAttachment ? { attachments: [context.invoiceAttachment] } : {}),
  }
}

/** The registrant's receipt once a card payment (the provider's webhook) paid the registration in full. */
export function paymentReceiptMail(context: PaymentReceiptContext): OutgoingMail {
  const { registration } = context
  const rows: Array<[string, string]> = [
    ...registrationRows(registration),
    ['Amount paid', formatRand(registration.totalCents)],
    ['Paid on', `${paidAtFormat.format(context.paidAt)} (SAST)`],
    ['Payment ID', context.paymentId],
    ...(context.invoiceNumber ? ([['Tax invoice', context.invoiceNumber]] as Array<[string, string]>) : []),
  ]
  const testNotice = context.testMode ? ' This was a test payment: no card was charged.' : ''
  const intro = `Thank you. We have received your card payment for ${registration.eventTitle}; your registration is paid in full.${testNotice}`
  return receiptMessage(context, `Payment received: registration ${registration.reference}`, [intro], rows)
}

/**
 * What a bank transfer brought, as the registrant's bank shows it: the receipt when it settled what was outstanding
 * (with any surplus and how it is paid back), else an acknowledgement of a part payment with what remains.
 */
export function bankTransferMail(context: TransferMailContext): OutgoingMail {
  const { registration, transfer } = context
  const paidInFull = transfer.remainingCents === 0
  const rows: Array<[string, string]> = [
    ...registrationRows(registration),
    ['Amount received', formatRand(transfer.amountCents)],
    ['Received on', formatDate(new Date(`${transfer.receivedOn}T12:00:00+02:00`))],
    ['As your bank describes it', transfer.bankDescription],
    ['Settled', `${formatRand(transfer.settledCents)}${context.invoiceNumber ? ` of tax invoice ${context.invoiceNumber}` : ''}`],
    ...(paidInFull ? [] : ([['Still outstanding', formatRand(transfer.remainingCents)]] as Array<[string, string]>)),
    ...(transfer.surplusCents > 0 ? ([['Paid beyond what was owed', formatRand(transfer.surplusCents)]] as Array<[string, string]>) : []),
  ]
  const paragraphs = paidInFull
    ? [`Thank you. We have received your bank transfer for ${registration.eventTitle}; your registration is paid in full.`]
    : [
        `Thank you. We have received a part payment by bank transfer for ${registration.eventTitle}. ${formatRand(transfer.remainingCents)} is still outstanding; please pay it to:`,
      ]
  if (transfer.surplusCents > 0) {
    paragraphs.push(
      `You paid ${formatRand(transfer.surplusCents)} more than was owed. That money is yours: we will pay it back to you by bank transfer. Please reply to this e-mail with the account it should be paid into (account holder, bank, account number and branch code).`,
    )
  }
  const subject = paidInFull ? `Payment received: registration ${registration.reference}` : `Part payment received: registration ${registration.reference}`
  const paymentRows: Array<[string, string]> = paidInFull
    ? []
    : [...bankDetailRows(context.settings.bankDetails, registration.reference), ['Amount', formatRand(transfer.remainingCents)]]
  return receiptMessage(paidInFull ? context : { ...context, invoiceAttachment: undefined }, subject, paragraphs, rows, paymentRows)
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
