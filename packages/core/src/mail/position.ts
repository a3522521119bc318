import { formatRand, TIME_ZONE } from '@events/pricing'
import { DateTime } from 'luxon'
import { creditNoteAttachment } from '../cancellation/credit-note.ts'
import { bankDetailRows, type BankDetails } from '../catalog.ts'
import { formatDate } from './dates.ts'
import { html, type SafeHtml } from './html.ts'
import { detailsTable, detailsText } from './layout.ts'
import type { MailAttachment } from './outgoing-mail.ts'

/** A cancellation's credit note as the e-mails state it. */
export interface CreditForMail {
  /** The stored credit note, attached to the e-mail. */
  creditNoteId: string
  /** As printed: CN-000001. */
  creditNoteNumber: string
  /** The business day of the cancellation, YYYY-MM-DD. */
  cancelledOn: string
  /** What was cancelled: "the registration" or the delegates' names. */
  cancelled: string
  creditedCents: number
}

/**
 * Where a registration stands when an e-mail is queued: what was received and is outstanding (after credit notes),
 * which delegates (by their place) still attend, what its cancellations credited and what went or is owed back. Kept
 * with the queued message, so the e-mail states the position of that moment rather than the one at registration.
 */
export interface PaymentPosition {
  paidCents: number
  outstandingCents: number
  attendingDelegates?: number[]
  /** Set once every delegate is cancelled. */
  cancelled?: boolean
  /** Its cancellations' credit notes, oldest first. */
  credits?: CreditForMail[]
  /** Given back already: card refunds made, refunds and surpluses paid out. */
  refundedCents?: number
  /** Owed back to the registrant and not paid out yet: a cancellation's refund, a transfer's surplus. */
  owedBackCents?: number
}

/**
 * The one wording of a registration's position in the e-mails: cancelled or not, each credit note with what it credited,
 * then paid in full, or what was received and is still to pay (with the bank details), or what is owed back.
 */
export function positionStatement(position: PaymentPosition, reference: string, bankDetails: BankDetails): { text: string; html: SafeHtml } {
  const paid = formatRand(position.paidCents)
  const credits = position.credits ?? []
  const cancelled = position.cancelled ? `Registration ${reference} is cancelled.` : ''
  const creditRows: Array<[string, string]> = credits.map((credit) => [
    `Credit note ${credit.creditNoteNumber}`,
    `${formatRand(credit.creditedCents)} credited: ${credit.cancelled} cancelled on ${formatDate(DateTime.fromISO(credit.cancelledOn, { zone: TIME_ZONE }).toJSDate())} (attached)`,
  ])
  let money: string
  let bankRows: Array<[string, string]> = []
  if (position.outstandingCents > 0) {
    // What is still owed, by bank transfer (a card pays only the whole total).
    bankRows = [...bankDetailRows(bankDetails, reference), ['Amount', formatRand(position.outstandingCents)]]
    const received = position.paidCents > 0 ? `Received so far: ${paid}. ` : ''
    money = `${received}Still to pay: ${formatRand(position.outstandingCents)}, by bank transfer using ${reference} as the payment reference.`
  } else if (credits.length > 0 || (position.refundedCents ?? 0) > 0 || (position.owedBackCents ?? 0) > 0) {
    money = [
      position.paidCents > 0 ? `Received: ${paid}.` : '',
      'Nothing is outstanding.',
      (position.refundedCents ?? 0) > 0 ? `Refunded to you: ${formatRand(position.refundedCents!)}.` : '',
      (position.owedBackCents ?? 0) > 0 ? `Still to be refunded to you: ${formatRand(position.owedBackCents!)}.` : '',
    ]
      .filter((part) => part !== '')
      .join(' ')
  } else {
    money = position.paidCents > 0 ? `Paid in full: ${paid} received. Thank you; nothing is outstanding.` : 'Nothing is outstanding.'
  }
  const text = [cancelled, creditRows.length > 0 ? detailsText(creditRows) : '', money, bankRows.length > 0 ? detailsText(bankRows) : '']
    .filter((part) => part !== '')
    .join('\n')
  return {
    text,
    html: html`${cancelled ? html`<p>${cancelled}</p>` : ''}${creditRows.length > 0 ? detailsTable(creditRows) : ''}<p>${money}</p>${bankRows.length > 0 ? detailsTable(bankRows) : ''}`,
  }
}

/** The credit notes a position names, as attachments (their PDFs filled in when the message is sent). */
export function creditNoteAttachments(position: PaymentPosition | undefined): MailAttachment[] {
  return (position?.credits ?? []).map((credit) => creditNoteAttachment({ id: credit.creditNoteId, number: credit.creditNoteNumber }))
}
