import type { SiteSettingsForMail } from '../catalog.ts'
import { formatEventDates } from './dates.ts'
import { html } from './html.ts'
import { detailsTable, detailsText, mailDocument } from './layout.ts'
import type { OutgoingMail } from './outgoing-mail.ts'

/** The entry and event a waiting-list e-mail is about. */
export interface WaitingListMailContext {
  name: string
  email: string
  eventTitle: string
  eventStart: string
  eventEnd: string
  position: number
  seats: number
  attendance: 'venue' | 'online'
  settings: SiteSettingsForMail
}

function footerText(settings: SiteSettingsForMail): string {
  return [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
}

const offeredUntilFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Johannesburg', dateStyle: 'long', timeStyle: 'short' })

/** "3 seats at the venue", "1 place online". */
function seatsWantedText(seats: number, attendance: 'venue' | 'online'): string {
  return attendance === 'venue' ? `${seats} ${seats === 1 ? 'seat' : 'seats'} at the venue` : `${seats} ${seats === 1 ? 'place' : 'places'} online`
}

function rowsOf(context: WaitingListMailContext): Array<[string, string]> {
  return [
    ['Event', context.eventTitle],
    ['Dates', formatEventDates(context.eventStart, context.eventEnd)],
    ['Seats wanted', seatsWantedText(context.seats, context.attendance)],
  ]
}

function mail(context: WaitingListMailContext, subject: string, paragraphs: string[], link?: { label: string; url: string }): OutgoingMail {
  const rows = rowsOf(context)
  const greeting = `Dear ${context.name},`
  const text = [greeting, ...paragraphs, detailsText(rows), ...(link ? [`${link.label}:\n${link.url}`] : [])].join('\n\n') + '\n'
  const body = html`<p>${greeting}</p>${paragraphs.map((paragraph) => html`<p>${paragraph}</p>`)}${detailsTable(rows)}${
    link ? html`<p><a href="${link.url}">${link.label}</a></p>` : ''
  }`
  return { to: [context.email], subject, text, html: mailDocument(subject, body, footerText(context.settings)) }
}

/** Confirms a place on the waiting list, with its position. */
export function waitingListPlaceMail(context: WaitingListMailContext): OutgoingMail {
  return mail(context, `Waiting list: ${context.eventTitle}`, [
    `You are number ${context.position} on the waiting list for ${context.eventTitle}.`,
    'When seats are given back we offer them in the order people joined: you will receive an e-mail with a private link that holds the seats for you for a limited time. There is nothing to pay until you register.',
  ])
}

/** Offers held seats, with the private link that registers for them before `offeredUntil`. */
export function waitingListOfferMail(context: WaitingListMailContext & { offerUrl: string; offeredUntil: Date }): OutgoingMail {
  const until = offeredUntilFormat.format(context.offeredUntil)
  return mail(
    context,
    `Seats are free for you: ${context.eventTitle}`,
    [
      `Good news: ${seatsWantedText(context.seats, context.attendance)} of ${context.eventTitle} are held for you until ${until}.`,
      'Register through the private link below before then; after that the seats go to the next person on the waiting list. Do not share the link: it registers for the seats held for you.',
    ],
    { label: 'Register for the seats held for you', url: context.offerUrl },
  )
}

/** Tells an entry its offer lapsed and its seats went to the next person waiting. */
export function waitingListOfferExpiredMail(context: WaitingListMailContext): OutgoingMail {
  return mail(context, `Your waiting-list offer has expired: ${context.eventTitle}`, [
    `The seats held for you at ${context.eventTitle} were not registered for in time, so they were offered to the next person on the waiting list.`,
    `If you would still like to attend, please contact us at ${context.settings.email}.`,
  ])
}
