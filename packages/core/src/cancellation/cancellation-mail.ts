import { formatRand } from '@events/pricing'
import type { SiteSettingsForMail } from '../catalog.ts'
import { formatDate } from '../mail/dates.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { MailAttachment, OutgoingMail } from '../mail/outgoing-mail.ts'

export interface CancellationMailContext {
  email: string
  reference: string
  eventTitle: string
  /** What was cancelled: "the registration" or the delegates' names. */
  cancelled: string
  feeSubtotalCents: number
  feePercent: number
  creditedTotalCents: number
  refundCents: number
  /** Where the refund goes: back to the card that paid (asked of the provider at once), or by bank transfer. */
  refundTo: 'card' | 'bank-account'
  creditNoteNumber: string
  invoiceNumber: string
  statusUrl: string
  settings: SiteSettingsForMail
  creditNote: MailAttachment
}

/**
 * What a cancellation cancelled, in words: "the registration" (with the delegates it still had, when asked), or the
 * delegates by name.
 */
export function describeCancelled(whole: boolean, names: readonly string[], { naming = false } = {}): string {
  if (whole) return naming ? `the registration (${names.join(', ')})` : 'the registration'
  return names.length === 1 ? `delegate ${names[0]}` : `delegates ${names.join(', ')}`
}

/** Tells the registrant what was cancelled, what the fee is and what is credited, with the credit note attached. */
export function creditNoteMail(context: CancellationMailContext): OutgoingMail {
  const { settings } = context
  const subject = `Cancellation and credit note ${context.creditNoteNumber}: registration ${context.reference}`
  const rows: Array<[string, string]> = [
    ['Reference', context.reference],
    ['Event', context.eventTitle],
    ['Cancelled', context.cancelled],
    ['Cancellation fee', `${context.feePercent}%: ${formatRand(context.feeSubtotalCents)} excl. VAT`],
    ['Credit note', `${context.creditNoteNumber} against tax invoice ${context.invoiceNumber}`],
    ['Credited incl. VAT', formatRand(context.creditedTotalCents)],
    ...(context.refundCents > 0
      ? ([[context.refundTo === 'card' ? 'Refund to your card' : 'To be refunded by bank transfer', formatRand(context.refundCents)]] as Array<
          [string, string]
        >)
      : []),
  ]
  const refundNotice =
    context.refundCents > 0 && context.refundTo === 'card'
      ? ' The refund goes back to the card you paid with; we will e-mail you when the card company has accepted it.'
      : ''
  const intro = `As agreed, we have cancelled ${context.cancelled} for ${context.eventTitle}. The credit note is attached.${refundNotice}`
  return {
    ...registrationPageMail(context, settings, {
      subject,
      intro,
      rows,
      statusLine: 'Your registration page (with the tax invoice and credit note to download):',
    }),
    attachments: [context.creditNote],
  }
}

/** A short mail about a registration: what happened, its details, and the link to the registration's page. */
function registrationPageMail(
  { email, statusUrl }: { email: string; statusUrl: string },
  settings: SiteSettingsForMail,
  { subject, intro, rows, statusLine }: { subject: string; intro: string; rows: Array<[string, string]>; statusLine: string },
): OutgoingMail {
  const footer = [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
  return {
    to: [email],
    subject,
    text: [intro, detailsText(rows), `${statusLine}\n${statusUrl}`].join('\n\n') + '\n',
    html: mailDocument(subject, html`<p>${intro}</p>${detailsTable(rows)}<p>${statusLine}<br><a href="${statusUrl}">${statusUrl}</a></p>`, footer),
  }
}

export interface CardRefundMailContext {
  email: string
  reference: string
  eventTitle: string
  amountCents: number
  /** The day the provider accepted the refund, by the business clock. */
  refundedOn: Date
  statusUrl: string
  settings: SiteSettingsForMail
}

/** Tells the registrant the card refund was made: the money went back to the card that paid. */
export function cardRefundMail(context: CardRefundMailContext): OutgoingMail {
  const { settings } = context
  const subject = `Refund made to your card: registration ${context.reference}`
  const rows: Array<[string, string]> = [
    ['Reference', context.reference],
    ['Event', context.eventTitle],
    ['Refunded to your card', formatRand(context.amountCents)],
    ['Refunded on', formatDate(context.refundedOn)],
  ]
  const intro = `We have refunded ${formatRand(context.amountCents)} to the card you paid with. Your bank may take a few working days to show it on your card statement.`
  return registrationPageMail(context, settings, { subject, intro, rows, statusLine: 'Your registration page:' })
}
