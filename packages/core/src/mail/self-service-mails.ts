import type { SiteSettingsForMail } from '../catalog.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { html } from './html.ts'
import { detailsTable, detailsText, mailDocument } from './layout.ts'
import type { OutgoingMail } from './outgoing-mail.ts'
import { footerText } from './registration-mails.ts'

/** An e-mail to the registrant confirming what they did from their private link, with the registration it concerns. */
export function selfServiceMail(
  registration: Pick<RegistrationRow, 'email' | 'reference' | 'company_name' | 'event_title'>,
  settings: SiteSettingsForMail,
  subject: string,
  paragraphs: readonly string[],
): OutgoingMail {
  const rows: Array<[string, string]> = [
    ['Registration', registration.reference],
    ['Company', registration.company_name],
    ['Event', registration.event_title],
  ]
  const text = [...paragraphs, detailsText(rows), `Questions? Write to ${settings.email}.`].join('\n\n') + '\n'
  const body = html`${paragraphs.map((paragraph) => html`<p>${paragraph}</p>`)}${detailsTable(rows)}<p>Questions? Write to ${settings.email}.</p>`
  return { to: [registration.email], subject, text, html: mailDocument(subject, body, footerText(settings)) }
}
