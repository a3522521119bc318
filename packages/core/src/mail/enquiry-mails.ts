import type { SiteSettingsForMail } from '../catalog.ts'
import { html, multilineHtml } from './html.ts'
import { detailsTable, detailsText, mailDocument } from './layout.ts'
import type { OutgoingMail } from './outgoing-mail.ts'

export interface EnquiryMailContext {
  /** Fixed text chosen by the server, never visitor input: it goes into the Subject header. */
  title: string
  rows: Array<[string, string]>
  senderName: string
  senderEmail: string
  organiserEmail: string
  settings: SiteSettingsForMail
}

function footerText(settings: SiteSettingsForMail): string {
  return [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
}

function rowsHtml(rows: ReadonlyArray<readonly [string, string]>) {
  return detailsTable(rows.map(([label, value]) => [label, value.includes('\n') ? multilineHtml(value) : value] as const))
}

/** The organiser's copy of an enquiry, answerable with Reply (reply-to is the sender). */
export function organiserEnquiryMail(context: EnquiryMailContext): OutgoingMail {
  return {
    to: [context.organiserEmail],
    replyTo: context.senderEmail,
    subject: context.title,
    text: `${context.title}\n\n${detailsText(context.rows)}\n`,
    html: mailDocument(context.title, html`${rowsHtml(context.rows)}<p>Reply to this e-mail to answer the sender.</p>`, footerText(context.settings)),
  }
}

/**
 * The sender's acknowledgement. Anyone can type any address into the form, so it carries nothing the visitor wrote
 * (not their name, not their message): only what happens next. The organiser's copy keeps everything.
 */
export function enquiryAcknowledgementMail(context: Pick<EnquiryMailContext, 'senderEmail' | 'settings'>): OutgoingMail {
  const { siteName, email } = context.settings
  const subject = `Thank you for contacting ${siteName}`
  const paragraphs = [
    `Thank you for contacting ${siteName}. We have received what you sent through our website.`,
    `Someone from our team will read it and reply to this address${email === '' ? '' : ` from ${email}`}.`,
    'If you did not write to us, you can ignore this e-mail: nothing more will be sent.',
  ]
  return {
    to: [context.senderEmail],
    subject,
    text: ['Good day,', ...paragraphs].join('\n\n') + '\n',
    html: mailDocument(subject, html`<p>Good day,</p>${paragraphs.map((paragraph) => html`<p>${paragraph}</p>`)}`, footerText(context.settings)),
  }
}

export interface EnquiryReplyContext {
  to: string
  name: string
  /** One line, already checked: it goes into the Subject header. */
  subject: string
  text: string
  /** What the enquirer wrote, quoted below the reply. */
  original: string
  organiserEmail: string
  settings: SiteSettingsForMail
}

// How a letter opens: staff who start their reply with one get no second greeting above it.
const GREETING = /^\s*(?:dear|hi|hello|hey|good (?:morning|afternoon|evening|day)|greetings|sawubona|dumela|molo|goeie(?:more|middag|naand)?|hallo)\b/i

/** Whether a reply opens with a greeting of its own ("Dear Mpho", "Hi Mpho", "Good morning"). */
function opensWithGreeting(text: string): boolean {
  return GREETING.test(text)
}

/**
 * A reply written in the back office, from the organiser's address, with the enquirer's message quoted. It opens
 * with "Dear {name}," unless staff greeted the enquirer themselves.
 */
export function enquiryReplyMail(context: EnquiryReplyContext): OutgoingMail {
  const quoted = context.original
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
  const greeted = opensWithGreeting(context.text)
  return {
    from: `"${context.settings.siteName.replace(/["\\\r\n]/g, '')}" <${context.organiserEmail}>`,
    to: [context.to],
    replyTo: context.organiserEmail,
    subject: context.subject,
    text: [...(greeted ? [] : [`Dear ${context.name},`]), context.text, `You wrote:\n${quoted}`].join('\n\n') + '\n',
    html: mailDocument(
      context.subject,
      html`${greeted ? '' : html`<p>Dear ${context.name},</p>`}<p>${multilineHtml(context.text)}</p><p>You wrote:</p><blockquote>${multilineHtml(context.original)}</blockquote>`,
      footerText(context.settings),
    ),
  }
}
