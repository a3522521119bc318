import { formatRand, type Quote } from '@events/pricing'
import { bankDetailRows, type RegistrationEvent, type SiteSettingsForMail } from '../catalog.ts'
import { PAYMENT_METHOD_LABELS } from '../submissions/choices.ts'
import type { DelegateSubmission, RegistrationSubmission } from '../submissions/registration.ts'
import { calendarAttachment, venueText } from './calendar.ts'
import { formatEventDates } from './dates.ts'
import { html, multilineHtml, type SafeHtml } from './html.ts'
import { detailsTable, detailsText, mailDocument } from './layout.ts'
import type { MailAttachment, OutgoingMail } from './outgoing-mail.ts'
import { creditNoteAttachments, positionStatement, type PaymentPosition } from './position.ts'

export interface RegistrationMailContext {
  reference: string
  statusUrl: string
  paymentUrl?: string | undefined
  privacyUrl: string
  organiserEmail: string
  event: RegistrationEvent
  settings: SiteSettingsForMail
  submission: RegistrationSubmission
  optionLabel: string
  quote: Quote
  /** The tax invoice issued with the registration, attached to the registrant's confirmation. */
  invoice: RegistrationInvoice
  /** The delegates' passes; absent for registrations stored before there were passes. */
  passes?: PassForMail[] | undefined
  /** The discount code it used: its invoice line's wording, and what it took off excl. VAT. */
  discount?: { description: string; discountCents: number; complimentary: boolean } | undefined
}

/** A delegate's pass as the e-mails show it: its code, its QR code and the link to its private page. */
export interface PassForMail {
  /** The delegate's place in the registration (0 for the first listed). */
  ordinal: number
  /** As people read it: `K7M2-Q9XD`. */
  code: string
  url: string
}

/**
 * A RegistrationMailContext as registration_mail_data keeps it: stored in the registration's transaction before its
 * tax invoice has a number, so the invoice's number and attachment are read from the invoice when a message is rendered.
 */
export type StoredRegistrationMailContext = Omit<RegistrationMailContext, 'invoice'> & { invoice: Pick<RegistrationInvoice, 'issueDate' | 'dueDate'> }

interface RegistrationInvoice {
  number: string
  issueDate: string
  dueDate: string
  attachment: MailAttachment
}

function vatLabel(quote: Quote): string {
  return `incl. ${Math.round(quote.vatRate * 10000) / 100}% VAT`
}

export function footerText(settings: SiteSettingsForMail): string {
  return [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
}

/**
 * Whether a delegate attends online: they get their joining link, no door pass and no venue. Registrations stored
 * before each delegate had their own attendance took the registration's option.
 */
function attendsOnline(context: RegistrationMailContext, index: number): boolean {
  const own = context.submission.delegates[index]?.attendance
  return (own ?? (context.submission.attendanceOption === 'online' ? 'online' : 'venue')) === 'online'
}

/** Which ways the registration's delegates attend: everyone online, everyone at the venue, or some of each. */
function attendanceOfAll(context: RegistrationMailContext): 'online' | 'venue' | 'mixed' {
  const online = context.submission.delegates.map((_, index) => attendsOnline(context, index))
  return online.every(Boolean) ? 'online' : online.some(Boolean) ? 'mixed' : 'venue'
}

const ONLINE_ATTENDANCE = 'Online: we e-mail each delegate their own joining link before the event starts'

/** Where delegates attend, as rows: the venue, online with how they will join, or both when the booking mixes them. */
function attendanceRows(context: RegistrationMailContext, attendance: 'online' | 'venue' | 'mixed'): Array<[string, string]> {
  if (attendance === 'online') return [['Where', ONLINE_ATTENDANCE]]
  if (attendance === 'venue') return [['Venue', venueText(context.event)]]
  return [
    ['Venue', venueText(context.event)],
    ['Online delegates', ONLINE_ATTENDANCE],
  ]
}

function calendarFor(context: RegistrationMailContext, attendance: 'online' | 'venue' | 'mixed'): MailAttachment {
  const { event, settings } = context
  return calendarAttachment(
    {
      uid: `${event.slug}-${context.reference}@${new URL(context.statusUrl).hostname}`,
      title: event.title,
      start: event.start,
      end: event.end,
      location: attendance === 'online' ? 'Online (joining link by e-mail)' : attendance === 'venue' ? venueText(event) : `${venueText(event)}, or online`,
      url: event.url,
      description: `Registration ${context.reference}. ${event.url}`,
      organiser: { name: settings.siteName, email: event.contactEmail },
    },
    settings.siteName,
  )
}

/** The delegates as rows, each saying how they attend when the booking mixes venue and online. */
function delegateRows(context: RegistrationMailContext, indexes: readonly number[]): Array<[string, string]> {
  const mixed = attendanceOfAll(context) === 'mixed'
  return indexes.flatMap((index): Array<[string, string]> => {
    const delegate = context.submission.delegates[index]
    if (!delegate) return []
    const how = mixed ? (attendsOnline(context, index) ? ' (online)' : ' (at the venue)') : ''
    return [[`Delegate ${index + 1}`, `${delegate.name}, ${delegate.position} <${delegate.email}>${how}`]]
  })
}

function allDelegates(context: RegistrationMailContext): number[] {
  return context.submission.delegates.map((_, index) => index)
}

/** The company's purchase order number as a row, when it gave one (registrations stored before there was one have none). */
function yourReferenceRow(submission: { purchaseOrderNumber?: string }): Array<[string, string]> {
  return submission.purchaseOrderNumber ? [['Your reference', submission.purchaseOrderNumber]] : []
}

/** The discount a code gave, as a row, when the registration used one. */
function discountRow({ discount }: Pick<RegistrationMailContext, 'discount'>): Array<[string, string]> {
  return discount ? [['Discount', `${discount.description}: ${formatRand(-discount.discountCents)}`]] : []
}

function registrationRows(context: RegistrationMailContext): Array<[string, string]> {
  const { submission, quote } = context
  return [
    ['Reference', context.reference],
    ['Event', context.event.title],
    ['Event code', submission.code],
    ['Company', submission.companyName],
    ['Address', submission.address],
    ['E-mail', submission.email],
    ['Telephone', submission.tel],
    ['VAT number', submission.vatNumber === '' ? 'Not registered for VAT' : submission.vatNumber],
    ...yourReferenceRow(submission),
    ['Attendance option', context.optionLabel],
    ['Number of delegates', String(submission.delegates.length)],
    ...delegateRows(context, allDelegates(context)),
    ['Payment method', PAYMENT_METHOD_LABELS[submission.paymentMethod]],
    ...discountRow(context),
    ['Subtotal excl. VAT', formatRand(quote.subtotalCents)],
    ['VAT', formatRand(quote.vatCents)],
    [`Total ${vatLabel(quote)}`, formatRand(quote.totalCents)],
    ['Legal agreement', 'Accepted'],
  ]
}

/** The inline image of a pass's QR code; its PNG is drawn when the message is rendered for sending. */
export function passImage(pass: PassForMail): MailAttachment {
  return { filename: `pass-${pass.code}.png`, contentType: 'image/png', content: '', qrCodeOf: pass.code, contentId: passContentId(pass) }
}

function passContentId(pass: PassForMail): string {
  return `pass-${pass.code}@events`
}

/** Passes as text and HTML, each with its QR code, its code and its link, named by delegate where there are several. */
export function passesSection(passes: ReadonlyArray<{ pass: PassForMail; name?: string }>): { text: string; html: SafeHtml } {
  const heading =
    passes.length === 1
      ? 'Your pass for the door (show the QR code or say the code):'
      : 'The delegates’ passes for the door (show the QR code or say the code):'
  const lines = passes.map(({ pass, name }) => `${name ? `${name}: ` : ''}pass ${pass.code}, ${pass.url}`)
  return {
    text: `${heading}\n${lines.join('\n')}`,
    html: html`<p>${heading}</p>${passes.map(
      ({ pass, name }) =>
        html`<p>${name ? html`<strong>${name}</strong><br>` : ''}<img src="cid:${passContentId(pass)}" width="164" height="164" alt="QR code of pass ${pass.code}"><br>Pass <strong>${pass.code}</strong> · <a href="${pass.url}">Open the pass</a></p>`,
    )}`,
  }
}

function rowsHtml(rows: ReadonlyArray<readonly [string, string]>): SafeHtml {
  return detailsTable(rows.map(([label, value]) => [label, value.includes('\n') ? multilineHtml(value) : value] as const))
}

/** The organiser's copy: every field and delegate, subject the event's registration subject with the reference. */
function organiserRegistrationMail(context: RegistrationMailContext): OutgoingMail {
  const subject = `${context.event.registrationSubject} ${context.reference}`
  const rows = registrationRows(context)
  return {
    to: [context.organiserEmail],
    replyTo: context.submission.email,
    subject,
    text: `${subject}\n\n${detailsText(rows)}\n\nStatus page: ${context.statusUrl}\n`,
    html: mailDocument(subject, html`${rowsHtml(rows)}<p><a href="${context.statusUrl}">Registration status page</a></p>`, footerText(context.settings)),
  }
}

function paymentInstructions(context: RegistrationMailContext, position: PaymentPosition | undefined): { text: string; html: SafeHtml } {
  const { settings, quote } = context
  // Sent again by staff: where it stands now, unless nothing happened since it was registered.
  if (position && (position.paidCents > 0 || position.outstandingCents !== quote.totalCents || (position.credits ?? []).length > 0)) {
    return positionStatement(position, context.reference, settings.bankDetails)
  }
  if (quote.totalCents === 0) {
    const text = context.discount?.complimentary
      ? 'Nothing to pay: this is a sponsor’s complimentary seat.'
      : 'Nothing to pay: the discount covers the whole price.'
    return { text, html: html`<p>${text}</p>` }
  }
  const total = formatRand(quote.totalCents)
  if (context.paymentUrl) {
    const text = `Pay ${total} by card, EFT or GPay on the secure payment page:\n${context.paymentUrl}`
    return {
      text,
      html: html`<p>Pay <strong>${total}</strong> by card, EFT or GPay on the secure payment page:</p><p><a href="${context.paymentUrl}">Pay now</a></p>`,
    }
  }
  const rows: Array<[string, string]> = [...bankDetailRows(settings.bankDetails, context.reference), ['Amount', total]]
  const terms = `Please pay in full within ${settings.paymentTermsDays} days of the invoice date (by ${context.invoice.dueDate}), using ${context.reference} as the payment reference.`
  return {
    text: `Pay by bank transfer:\n${detailsText(rows)}\n${terms}`,
    html: html`<p>Pay by bank transfer:</p>${rowsHtml(rows)}<p>${terms}</p>`,
  }
}

/** The registrant's confirmation: reference, event, dates, venue, delegates, option, total, how to pay, status link, calendar file. */
function registrantConfirmationMail(context: RegistrationMailContext, position?: PaymentPosition): OutgoingMail {
  const { event, submission, quote, settings } = context
  const delegates = position?.attendingDelegates ? allDelegates(context).filter((index) => position.attendingDelegates!.includes(index)) : allDelegates(context)
  const attendance = attendanceOfAll(context)
  const subject = `Registration ${context.reference}: ${event.title}`
  const rows: Array<[string, string]> = [
    ['Reference', context.reference],
    ...yourReferenceRow(submission),
    ['Event', event.title],
    ['Dates', formatEventDates(event.start, event.end)],
    ...attendanceRows(context, attendance),
    ['Attendance option', context.optionLabel],
    ...delegateRows(context, delegates),
    [`Total ${vatLabel(quote)}`, formatRand(quote.totalCents)],
    ['Payment method', PAYMENT_METHOD_LABELS[submission.paymentMethod]],
    ['Tax invoice', `${context.invoice.number}, issued ${context.invoice.issueDate} (attached)`],
  ]
  const payment = paymentInstructions(context, position)
  // A pass is for the door: online delegates join by their link instead.
  const passes = (context.passes ?? [])
    .filter((pass) => !attendsOnline(context, pass.ordinal))
    .filter((pass) => !position?.attendingDelegates || position.attendingDelegates.includes(pass.ordinal))
    .map((pass) => ({ pass, name: submission.delegates[pass.ordinal]?.name ?? '' }))
  const passSection = passes.length > 0 ? passesSection(passes) : undefined
  const intro = `Thank you for registering ${submission.companyName} for ${event.title}.`
  const statusLine = 'Your private registration page (keep this link to yourself):'
  const questions = `Questions? Contact us at ${event.contactEmail} or ${event.contactPhone}.`
  return {
    to: [submission.email],
    subject,
    text:
      [
        intro,
        detailsText(rows),
        payment.text,
        ...(passSection ? [passSection.text] : []),
        `${statusLine}\n${context.statusUrl}`,
        questions,
        'The attached calendar file adds the event to your calendar.',
      ].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>${intro}</p>${rowsHtml(rows)}${payment.html}${passSection?.html}<p>${statusLine}<br><a href="${context.statusUrl}">${context.statusUrl}</a></p><p>${questions}</p><p>The attached calendar file adds the event to your calendar.</p>`,
      footerText(settings),
    ),
    attachments: [
      calendarFor(context, attendance),
      context.invoice.attachment,
      ...creditNoteAttachments(position),
      ...passes.map(({ pass }) => passImage(pass)),
    ],
  }
}

/** A delegate's short notice that they were registered, with the calendar file and the privacy notice link. */
function delegateNoticeMail(context: RegistrationMailContext, index: number, delegate: DelegateSubmission, pass?: PassForMail): OutgoingMail {
  const { event, settings, submission } = context
  const attendance = attendsOnline(context, index) ? 'online' : 'venue'
  const doorPass = attendance === 'online' ? undefined : pass
  const passSection = doorPass ? passesSection([{ pass: doorPass }]) : undefined
  const subject = `You are registered for ${event.title}`
  const intro = `${submission.companyName} has registered you for ${event.title} (reference ${context.reference}).`
  const rows: Array<[string, string]> = [
    ['Dates', formatEventDates(event.start, event.end)],
    ...attendanceRows(context, attendance),
    ['Attendance option', context.optionLabel],
  ]
  const privacy = `We use your name, position and e-mail address only to run this event. How we handle personal information: ${context.privacyUrl}`
  return {
    to: [delegate.email],
    subject,
    text:
      [
        `Dear ${delegate.name},`,
        intro,
        detailsText(rows),
        ...(passSection ? [passSection.text] : []),
        'The attached calendar file adds the event to your calendar.',
        privacy,
      ].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>Dear ${delegate.name},</p><p>${intro}</p>${rowsHtml(rows)}${passSection?.html}<p>The attached calendar file adds the event to your calendar.</p><p>We use your name, position and e-mail address only to run this event. <a href="${context.privacyUrl}">How we handle personal information</a>.</p>`,
      footerText(settings),
    ),
    attachments: [calendarFor(context, attendance), ...(doorPass ? [passImage(doorPass)] : [])],
  }
}

/**
 * A registration e-mail as the outbox keeps it: which template, rendered when it is sent from the registration's
 * RegistrationMailContext (stored once per registration, in registration_mail_data). The context is fixed when
 * the registration is stored, so the message says what it would have said then, and the registration's
 * transaction writes the data once instead of every rendered message and calendar file.
 */
export type RegistrationMailJob =
  | { template: 'registration.organiser' }
  | { template: 'registration.registrant'; position?: PaymentPosition }
  | { template: 'registration.delegate'; delegate: number }

/** The e-mails a registration causes: the organiser's copy, the registrant's confirmation, one notice per delegate. */
export function registrationMailJobs(submission: RegistrationSubmission): RegistrationMailJob[] {
  const jobs: RegistrationMailJob[] = [{ template: 'registration.organiser' }, { template: 'registration.registrant' }]
  // The registrant already has the full confirmation, and nobody needs the same notice twice.
  const notified = new Set([submission.email.toLowerCase()])
  submission.delegates.forEach((delegate, index) => {
    const address = delegate.email.toLowerCase()
    if (notified.has(address)) return
    notified.add(address)
    jobs.push({ template: 'registration.delegate', delegate: index })
  })
  return jobs
}

/** Renders a stored registration e-mail from its registration's context. */
export function renderRegistrationMail(job: RegistrationMailJob, context: RegistrationMailContext): OutgoingMail {
  switch (job.template) {
    case 'registration.organiser':
      return organiserRegistrationMail(context)
    case 'registration.registrant':
      return registrantConfirmationMail(context, job.position)
    case 'registration.delegate': {
      const delegate = context.submission.delegates[job.delegate]
      if (!delegate) throw new Error(`Registration ${context.reference} has no delegate ${job.delegate}`)
      return delegateNoticeMail(
        context,
        job.delegate,
        delegate,
        context.passes?.find((pass) => pass.ordinal === job.delegate),
      )
    }
  }
}
