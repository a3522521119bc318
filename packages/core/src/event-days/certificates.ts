import { TIME_ZONE } from '@events/pricing'
import { zipSync } from 'fflate'
import { DateTime } from 'luxon'
import type { Kysely, Transaction } from 'kysely'
import QRCode from 'qrcode'
import * as z from 'zod/mini'
import type { AgendaDay, EventCatalog, RegistrationEvent } from '../catalog.ts'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { CoreDatabase, Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { registerAttachmentKind } from '../outbox/attachments.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { MailAttachment, OutgoingMail } from '../mail/outgoing-mail.ts'
import { documentBytes, newPdfDocument, registerDejaVuFonts } from '../pdf/fonts.ts'
import { newId } from '../ids.ts'
import { startRecurringRound } from '../recurring-round.ts'
import { eventKeyOf, registrationsOfEvent } from '../registration/event-ids.ts'
import { paymentStateOf } from '../registration/payment-state.ts'
import { findRegistrationByReferenceAndSecret } from '../registration/queries.ts'
import type { SiteLinks } from '../site-links.ts'
import { ownFields } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { checkInDays, registeredEvent } from './check-in.ts'
import { formatPassCode, newPassCode } from './pass-codes.ts'

/** What a certificate is now: in force, revoked by staff, or replaced by another (a corrected name). */
export type CertificateState = 'valid' | 'revoked' | 'replaced'

/** A certificate as the verification page, the back office and the status page show it. */
export interface Certificate {
  number: string
  name: string
  eventTitle: string
  /** The days attended (YYYY-MM-DD), first to last. */
  days: string[]
  /** "3 and 4 July 2025". */
  daysText: string
  cpdMinutes: number
  /** "6.5 hours". */
  cpdHoursText: string
  organiser: string
  issuedAt: string
  state: CertificateState
  replacedBy?: string | undefined
  /** What else it said as issued; undefined on a certificate issued before these were kept. */
  details?: CertificateDetails | undefined
  /** Each day attended with its hours ("3 July 2025", "6 hours"); empty on a certificate without details. */
  dayHours: Array<{ date: string; dateText: string; hoursText: string }>
  /** "1.5 hours" of ethics; undefined without details. */
  ethicsHoursText?: string | undefined
}

/** Who accredits an event for CPD, under which number, and in which category, as a certificate prints it. */
interface CpdAccreditationText {
  accreditingBody: string
  accreditationNumber: string
  category: string | null
}

/** What a certificate says beyond the delegate, the event, the days and the total: kept with it as issued. */
interface CertificateDetails {
  /** Null for an event no CPD body accredits: the certificate then has no accreditation lines. */
  accreditation: CpdAccreditationText | null
  /** The venue's name and address as the catalogue had them; "" when it had none. */
  venue: string
  /** The CPD minutes of each day attended, first to last. */
  days: Array<{ date: string; minutes: number }>
  /** Of the total, the minutes of sessions that count as ethics. */
  ethicsMinutes: number
  /** Who signs it; null when the site settings name no one (the signature line stays, unnamed). */
  signatory: { name: string; title: string; signatureUrl: string | null } | null
  /** The delegate's professional registration number, when they gave one for an accredited event. */
  professionalRegistrationNumber?: string | undefined
}

/** A delegate's CPD time: each day attended, the ethics part and the total, in whole half hours. */
export interface CpdBreakdown {
  days: Array<{ date: string; minutes: number }>
  ethicsMinutes: number
  totalMinutes: number
}

/** The CPD time of one session, in minutes; a session whose times do not read as HH:mm counts nothing. */
function sessionMinutes(session: AgendaDay['sessions'][number]): number {
  const start = minuteOfDay(session.start)
  const end = minuteOfDay(session.end)
  return start === undefined || end === undefined ? 0 : Math.max(0, end - start)
}

/** The minutes since midnight of a session time "HH:mm"; undefined when it does not read as one. */
function minuteOfDay(time: string): number | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim())
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined
}

/** The minute of its day (Johannesburg) at which a delegate left, from the moment recorded at the door. */
function departureMinute(leftAt: string): number {
  const local = DateTime.fromISO(leftAt, { zone: TIME_ZONE })
  return local.hour * 60 + local.minute
}

/**
 * The sessions of one day that count for CPD: breaks (registration, tea, lunch) left out and, when the delegate left
 * early (`leftAtMinute`, minutes since midnight), only the sessions that had ended by then.
 */
function countedSessions(agendaDay: AgendaDay | undefined, leftAtMinute: number | undefined): AgendaDay['sessions'] {
  return (agendaDay?.sessions ?? [])
    .filter((session) => !session.isBreak)
    .filter((session) => leftAtMinute === undefined || (minuteOfDay(session.end) ?? Number.POSITIVE_INFINITY) <= leftAtMinute)
}

function minutesOf(sessions: AgendaDay['sessions']): number {
  return sessions.reduce((sum, session) => sum + sessionMinutes(session), 0)
}

/**
 * A delegate's CPD time, computed once for the certificate, its verification page and the back office. Each day
 * attended counts the agenda's sessions of that day, breaks left out, rounded down to the half hour (a certificate
 * never claims time the programme did not give), or staff's hours for that day (`overrides`: day to minutes); on a
 * day the delegate left early (`departures`: day to minute of the day, Johannesburg) only the sessions that ended
 * before they left, never more than staff's hours. The ethics part counts the sessions marked as ethics, within each
 * day's hours. The total is the sum of the days, so the days printed add up to it.
 */
export function cpdBreakdown(
  agendaDays: readonly AgendaDay[],
  days: readonly string[],
  options: { departures?: Readonly<Record<string, number>>; overrides?: Readonly<Record<string, number>> } = {},
): CpdBreakdown {
  const { departures = {}, overrides = {} } = options
  let ethics = 0
  const perDay = [...days].sort().map((date) => {
    const agendaDay = agendaDays.find((day) => day.date === date)
    const leftAt = departures[date]
    const sessions = countedSessions(agendaDay, leftAt)
    const agendaMinutes = roundedDownToHalfHour(minutesOf(sessions))
    const override = overrides[date]
    const minutes = override === undefined ? agendaMinutes : leftAt === undefined || !agendaDay ? override : Math.min(override, agendaMinutes)
    ethics += Math.min(minutes, minutesOf(sessions.filter((session) => session.isEthics === true)))
    return { date, minutes }
  })
  const totalMinutes = perDay.reduce((sum, day) => sum + day.minutes, 0)
  return { days: perDay, ethicsMinutes: Math.min(totalMinutes, roundedDownToHalfHour(ethics)), totalMinutes }
}

/** The span of a day's programme in minutes, from its first session's start to its last one's end; a whole day without one. */
function programmeMinutes(agendaDay: AgendaDay | undefined): number {
  const starts = (agendaDay?.sessions ?? []).map((session) => minuteOfDay(session.start)).filter((minute) => minute !== undefined)
  const ends = (agendaDay?.sessions ?? []).map((session) => minuteOfDay(session.end)).filter((minute) => minute !== undefined)
  return starts.length === 0 || ends.length === 0 ? 24 * 60 : Math.max(0, Math.max(...ends) - Math.min(...starts))
}

function roundedDownToHalfHour(minutes: number): number {
  return Math.floor(minutes / 30) * 30
}

/** "1 hour", "6 hours", "12.5 hours". */
export function formatCpdHours(minutes: number): string {
  const hours = minutes / 60
  return `${hours.toLocaleString('en-ZA', { maximumFractionDigits: 1 }).replace(',', '.')} ${hours === 1 ? 'hour' : 'hours'}`
}

/** "Thursday 3 July 2025". */
function formatDay(date: string): string {
  return DateTime.fromISO(date, { zone: TIME_ZONE }).toFormat('cccc d MMMM yyyy')
}

/** "3 July 2025", "3 and 4 July 2025", "3, 4 and 5 July 2025" (each day with its month when they differ). */
export function formatAttendedDays(days: readonly string[]): string {
  const dates = days.map((day) => DateTime.fromISO(day, { zone: TIME_ZONE }))
  const sameMonth = dates.every((date) => date.hasSame(dates[0]!, 'month'))
  const labels = dates.map((date, index) => (sameMonth && index < dates.length - 1 ? date.toFormat('d') : date.toFormat('d MMMM yyyy')))
  return labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`
}

/** A new certificate number: `CPD-` and eight characters that cannot be misread (as a pass code). */
function newCertificateNumber(): string {
  return `CPD-${formatPassCode(newPassCode())}`
}

/** A certificate number as typed or scanned, in its stored form; undefined when it cannot be one. */
function normaliseCertificateNumber(input: string): string | undefined {
  const match = /^CPD-?([2-9A-HJ-NP-Z]{4})-?([2-9A-HJ-NP-Z]{4})$/.exec(input.trim().toUpperCase())
  return match ? `CPD-${match[1]}-${match[2]}` : undefined
}

type CertificateRow = Database['certificates']

function certificateOf(row: CertificateRow): Certificate {
  const days = JSON.parse(row.days) as string[]
  const details = row.details === null ? undefined : (JSON.parse(row.details) as CertificateDetails)
  return {
    number: row.number,
    name: row.name,
    eventTitle: row.event_title,
    days,
    daysText: formatAttendedDays(days),
    cpdMinutes: row.cpd_minutes,
    cpdHoursText: formatCpdHours(row.cpd_minutes),
    organiser: row.organiser,
    issuedAt: row.issued_at,
    state: row.replaced_by !== null ? 'replaced' : row.revoked_at !== null ? 'revoked' : 'valid',
    replacedBy: row.replaced_by ?? undefined,
    details,
    dayHours: (details?.days ?? []).map((day) => ({ date: day.date, dateText: formatDay(day.date), hoursText: formatCpdHours(day.minutes) })),
    ethicsHoursText: details && formatCpdHours(details.ethicsMinutes),
  }
}

/** A certificate by its number, as the public verification page shows it; undefined for a number never issued. */
export async function verifyCertificate(context: { db: CoreDatabase }, number: string): Promise<Certificate | undefined> {
  const normalised = normaliseCertificateNumber(number)
  if (!normalised) return undefined
  const row = await context.db.kysely.selectFrom('certificates').selectAll().where('number', '=', normalised).executeTakeFirst()
  return row && certificateOf(row)
}

// Printed on the certificate and scanned off paper: medium error correction, the usual quiet zone.
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4, type: 'png', scale: 6 } as const

const REGULAR = 'Certificate-Regular'
// DejaVu's "fi" ligature would make "Certificate" one glyph that a search or a copy of the PDF's text does not find;
// fontkit takes features as an object, where false turns a default one off (pdfkit's types only know the array).
const PLAIN_LETTERS = { liga: false } as unknown as PDFKit.Mixins.TextOptions['features']
const BOLD = 'Certificate-Bold'

/** How long a signature image may take to load before the certificate is made without it. */
const SIGNATURE_TIMEOUT_MS = 5000

/**
 * The signatory's signature image (PNG or JPEG, what a PDF embeds), or undefined when there is none, it does not load
 * within 5 seconds, or it is not such an image: the certificate then keeps the signature line without it.
 */
async function loadSignature(details: CertificateDetails | undefined): Promise<Buffer | undefined> {
  const url = details?.signatory?.signatureUrl
  if (!url) return undefined
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(SIGNATURE_TIMEOUT_MS) })
    if (!response.ok) return undefined
    const bytes = Buffer.from(await response.arrayBuffer())
    const isPng = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    const isJpeg = bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))
    return isPng || isJpeg ? bytes : undefined
  } catch {
    // Unreachable, refused or too slow: a certificate is never held up by its signature's image.
    return undefined
  }
}

/** The hours per day as one line: "Thursday 3 July 2025: 6 hours · Friday 4 July 2025: 5.5 hours". */
function dayHoursLine(certificate: Certificate): string {
  return certificate.dayHours.map((day) => `${day.dateText}: ${day.hoursText}`).join(' · ')
}

/**
 * The certificate as a one-page A4 landscape PDF with the QR code of its verification page: what a CPD body asks of
 * it (accreditation, category, venue, hours per day and of ethics, signatory) when it was issued with those details.
 * The same bytes every time for the same signature image.
 */
async function renderCertificatePdf(certificate: Certificate, verificationUrl: string, signature: Buffer | undefined): Promise<Buffer> {
  const issuedAt = new Date(certificate.issuedAt)
  const details = certificate.details
  const doc = newPdfDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 50,
    info: {
      Title: `Certificate of attendance ${certificate.number}`,
      Author: certificate.organiser,
      Subject: certificate.eventTitle,
      CreationDate: issuedAt,
      ModDate: issuedAt,
    },
  })
  registerDejaVuFonts(doc, { regular: REGULAR, bold: BOLD })
  const finished = documentBytes(doc)
  const width = doc.page.width - 120
  const centred = { width, align: 'center', features: PLAIN_LETTERS } as const
  doc
    .lineWidth(2)
    .strokeColor('#1f4e79')
    .rect(30, 30, doc.page.width - 60, doc.page.height - 60)
    .stroke()
  doc.fillColor('#1a1a1a')
  doc.font(BOLD).fontSize(26).text('Certificate of Attendance', 60, 55, centred)
  doc.moveDown(0.5).font(REGULAR).fontSize(12).text('This certifies that', centred)
  doc.moveDown(0.3).font(BOLD).fontSize(22).text(certificate.name, centred)
  if (details?.professionalRegistrationNumber)
    doc.font(REGULAR).fontSize(11).text(`Professional registration number: ${details.professionalRegistrationNumber}`, centred)
  doc.moveDown(0.3).font(REGULAR).fontSize(12).text('attended', centred)
  doc.moveDown(0.3).font(BOLD).fontSize(16).text(certificate.eventTitle, centred)
  doc.moveDown(0.4).font(REGULAR).fontSize(12).text(`on ${certificate.daysText}`, centred)
  if (details?.venue) doc.text(`at ${details.venue}`, centred)
  doc.moveDown(0.5).fontSize(11)
  if (certificate.dayHours.length > 0) doc.text(`Hours per day: ${dayHoursLine(certificate)}`, centred)
  doc.font(BOLD).text(`CPD hours: ${certificate.cpdHoursText}`, centred).font(REGULAR)
  if (details) doc.text(`of which ethics: ${certificate.ethicsHoursText}`, centred)
  if (details?.accreditation) {
    const { accreditingBody, accreditationNumber, category } = details.accreditation
    doc.moveDown(0.4).text(`Accredited by ${accreditingBody}, provider accreditation number ${accreditationNumber}`, centred)
    if (category) doc.text(`CPD category: ${category}`, centred)
  }
  doc.moveDown(0.4).text(`Organised by ${certificate.organiser}`, centred)

  const qrSize = 100
  const bottom = doc.page.height - 50 - qrSize
  doc.image(await QRCode.toBuffer(verificationUrl, QR_OPTIONS), doc.page.width - 60 - qrSize, bottom, { width: qrSize, height: qrSize })
  // The signatory's block: their signature above the line when its image loaded, the line on its own otherwise.
  const lineY = bottom + 38
  if (signature) doc.image(signature, 60, lineY - 36, { fit: [180, 34], valign: 'bottom' })
  doc.lineWidth(0.8).strokeColor('#1a1a1a').moveTo(60, lineY).lineTo(260, lineY).stroke()
  doc.font(REGULAR).fontSize(10).fillColor('#1a1a1a')
  if (details?.signatory) {
    doc.text(details.signatory.name, 60, lineY + 4, { width: 300, features: PLAIN_LETTERS })
    if (details.signatory.title) doc.text(details.signatory.title, { width: 300, features: PLAIN_LETTERS })
  }
  const footWidth = width - qrSize - 20
  doc
    .fontSize(9)
    .fillColor('#555555')
    .text(`Certificate number: ${certificate.number}`, 60, bottom + 76, { width: footWidth, features: PLAIN_LETTERS })
    // The address is copied or typed from paper: on one line, never broken where a reader would lose its end.
    .text(`Verify at ${verificationUrl}`, { width: footWidth, lineBreak: false, features: PLAIN_LETTERS })
  doc.end()
  return finished
}

/** The PDF of a stored certificate by its number; undefined for a number never issued. */
export async function certificatePdf(context: { db: CoreDatabase; links: SiteLinks }, number: string): Promise<Buffer | undefined> {
  const certificate = await verifyCertificate(context, number)
  return certificate && renderCertificatePdf(certificate, context.links.certificate(certificate.number), await loadSignature(certificate.details))
}

/** The file name a certificate's PDF is attached and downloaded under. */
export function certificateFilename(number: string): string {
  return `certificate-${number}.pdf`
}

/** Fills in the PDF of every certificate attachment of a message about to be sent. */
async function withRenderedCertificates(db: CoreDatabase, mail: OutgoingMail): Promise<OutgoingMail> {
  if (!mail.attachments?.some((attachment) => attachment.certificate)) return mail
  const attachments = await Promise.all(
    mail.attachments.map(async ({ certificate, ...attachment }): Promise<MailAttachment> => {
      if (!certificate) return attachment
      const found = await verifyCertificate({ db }, certificate.number)
      if (!found) throw new Error(`Certificate ${certificate.number} of an outgoing message does not exist`)
      const pdf = await renderCertificatePdf(found, certificate.url, await loadSignature(found.details))
      return { ...attachment, content: pdf.toString('base64'), encoding: 'base64' }
    }),
  )
  return { ...mail, attachments }
}

/** The e-mail that sends a delegate their certificate (its PDF rendered when the message is sent). */
function certificateMail(certificate: Certificate, email: string, verificationUrl: string): OutgoingMail {
  const subject = `Your certificate of attendance: ${certificate.eventTitle}`
  const greeting = `Dear ${certificate.name},`
  const paragraph = `Thank you for attending ${certificate.eventTitle}. Your certificate of attendance is attached; anyone can check it at the address below.`
  const rows: Array<[string, string]> = [
    ['Certificate number', certificate.number],
    ['Days attended', certificate.daysText],
    ['CPD hours', certificate.cpdHoursText],
  ]
  const text = [greeting, paragraph, detailsText(rows), `Verify the certificate:\n${verificationUrl}`].join('\n\n') + '\n'
  const body = html`<p>${greeting}</p>
    <p>${paragraph}</p>
    ${detailsTable(rows)}
    <p><a href="${verificationUrl}">Verify the certificate</a></p>`
  return {
    to: [email],
    subject,
    text,
    html: mailDocument(subject, body, certificate.organiser),
    attachments: [
      {
        filename: certificateFilename(certificate.number),
        contentType: 'application/pdf',
        content: '',
        encoding: 'base64',
        certificate: { number: certificate.number, url: verificationUrl },
      },
    ],
  }
}

/** A delegate who qualifies for a certificate: at the venue (checked in) or online (joined) on at least one day. */
interface QualifyingDelegate {
  delegateId: string
  registrationId: string
  registration: Pick<RegistrationRow, 'id' | 'status' | 'total_cents' | 'reference'>
  name: string
  email: string
  days: string[]
  /** The days on which staff recorded that the delegate left early, with the minute of the day they left. */
  departures: Record<string, number>
  professionalRegistrationNumber: string | null
}

/** The delegates of an event who attended at least one of `days`, not cancelled and not erased, with the days they attended. */
async function qualifyingDelegates(
  queries: Kysely<Database>,
  eventId: string,
  days: readonly string[],
  registrationId?: string,
): Promise<QualifyingDelegate[]> {
  const delegates = queries
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .select(['registrations.status', 'registrations.total_cents', 'registrations.reference', 'registration_delegates.professional_registration_number'])
    .where(registrationsOfEvent(eventId))
    .$if(registrationId !== undefined, (query) => query.where('registrations.id', '=', registrationId!))
    .where('registration_delegates.cancellation_id', 'is', null)
    .where('registrations.cancelled_at', 'is', null)
    // An erased delegate keeps no address to send to, and no name to print.
    .where('registration_delegates.email', '<>', '')
  const checkedIn = await delegates
    .innerJoin('check_ins', 'check_ins.delegate_id', 'registration_delegates.id')
    .select([
      'registration_delegates.id',
      'registrations.id as registration_id',
      'registration_delegates.name',
      'registration_delegates.email',
      'check_ins.event_day',
      'check_ins.left_at',
    ])
    .where('check_ins.undone_at', 'is', null)
    .where('check_ins.event_day', 'in', [...days])
    .execute()
  const online = await delegates
    .innerJoin('online_attendance', 'online_attendance.delegate_id', 'registration_delegates.id')
    .select([
      'registration_delegates.id',
      'registrations.id as registration_id',
      'registration_delegates.name',
      'registration_delegates.email',
      'online_attendance.event_day',
    ])
    .where('online_attendance.event_day', 'in', [...days])
    .execute()
  const byDelegate = new Map<string, QualifyingDelegate>()
  for (const row of [...checkedIn, ...online]) {
    const delegate = byDelegate.get(row.id) ?? {
      delegateId: row.id,
      registrationId: row.registration_id,
      registration: { id: row.registration_id, status: row.status, total_cents: row.total_cents, reference: row.reference },
      name: row.name,
      email: row.email,
      days: [],
      departures: {},
      professionalRegistrationNumber: row.professional_registration_number,
    }
    if (!delegate.days.includes(row.event_day)) delegate.days.push(row.event_day)
    byDelegate.set(row.id, delegate)
  }
  for (const row of checkedIn) if (row.left_at !== null) byDelegate.get(row.id)!.departures[row.event_day] = departureMinute(row.left_at)
  return [...byDelegate.values()].map((delegate) => ({ ...delegate, days: delegate.days.sort() })).sort((a, b) => a.name.localeCompare(b.name))
}

/** Staff's CPD minutes of the days of an event they set: day (YYYY-MM-DD) to minutes. */
async function dayHoursOverrides(queries: Kysely<Database>, eventId: string): Promise<Record<string, number>> {
  const rows = await queries.selectFrom('event_cpd_day_hours').select(['date', 'minutes']).where('event_id', '=', eventId).execute()
  return Object.fromEntries(rows.map((row) => [row.date, row.minutes]))
}

/** A registered event as the content describes it now (by the slug its registrations have); undefined when gone. */
async function catalogEventOf(catalog: EventCatalog, queries: Kysely<Database>, eventId: string): Promise<RegistrationEvent | undefined> {
  const row = await queries
    .selectFrom('registrations')
    .select('event_slug')
    .where(registrationsOfEvent(eventId))
    .orderBy('created_at', 'desc')
    .executeTakeFirst()
  return row && (await catalog.getEvent(row.event_slug))
}

/** What the certificates of an event are issued from: read before the write transaction. */
interface IssueFacts {
  agenda: AgendaDay[]
  overrides: Record<string, number>
  organiser: string
  /** The event holds certificates until a registration is paid in full (the default, also when the content is gone). */
  onlyWhenPaid: boolean
  accreditation: CpdAccreditationText | null
  venue: string
  signatory: CertificateDetails['signatory']
}

async function issueFacts(context: BackOfficeContext, eventId: string): Promise<IssueFacts> {
  const [event, overrides, settings] = await Promise.all([
    catalogEventOf(context.catalog, context.db.kysely, eventId),
    dayHoursOverrides(context.db.kysely, eventId),
    context.catalog.getSettings(),
  ])
  const signatory = settings.certificateSignatory
  return {
    agenda: event?.agendaDays ?? [],
    overrides,
    organiser: settings.siteName,
    onlyWhenPaid: event?.certificatesOnlyWhenPaid !== false,
    accreditation: event?.cpd
      ? { accreditingBody: event.cpd.accreditingBody, accreditationNumber: event.cpd.accreditationNumber, category: event.cpd.category || null }
      : null,
    venue: event ? [event.venue.name, event.venue.address].filter(Boolean).join(', ') : '',
    signatory: signatory ? { name: signatory.name, title: signatory.title, signatureUrl: signatory.signatureUrl || null } : null,
  }
}

/** What a registration still owes: nothing once paid in full (a complimentary one from the start) or credited in full. */
async function outstandingCentsOf(queries: Kysely<Database>, registration: QualifyingDelegate['registration']): Promise<number> {
  if (registration.status === 'paid') return 0
  return (await paymentStateOf(queries, registration)).outstandingCents
}

async function insertCertificate(
  transaction: Transaction<Database>,
  links: SiteLinks,
  values: Omit<CertificateRow, 'id' | 'number' | 'revoked_at' | 'revoked_by_name' | 'replaced_by'>,
  email: string,
): Promise<Certificate> {
  const row: CertificateRow = { id: newId(), number: newCertificateNumber(), revoked_at: null, revoked_by_name: null, replaced_by: null, ...values }
  await transaction.insertInto('certificates').values(row).execute()
  const certificate = certificateOf(row)
  const url = links.certificate(certificate.number)
  await enqueueMails(transaction, row.registration_id, [{ topic: 'certificate', mail: certificateMail(certificate, email, url) }], new Date(row.issued_at))
  return certificate
}

/** The delegates of an event (or of one registration of it) who attended and have no certificate yet (a revoked one stays revoked). */
async function uncertifiedDelegates(
  queries: Kysely<Database>,
  eventId: string,
  event: { start: string; end: string },
  registrationId?: string,
): Promise<QualifyingDelegate[]> {
  const qualifying = await qualifyingDelegates(queries, eventId, checkInDays(event.start, event.end), registrationId)
  if (qualifying.length === 0) return []
  const certified = new Set(
    (
      await queries
        .selectFrom('certificates')
        .select('delegate_id')
        .where(
          'delegate_id',
          'in',
          qualifying.map((delegate) => delegate.delegateId),
        )
        .execute()
    ).map((row) => row.delegate_id),
  )
  return qualifying.filter((delegate) => !certified.has(delegate.delegateId))
}

/** Each registration among `delegates` that still owes something, with what it owes. */
async function owingRegistrations(queries: Kysely<Database>, delegates: readonly QualifyingDelegate[]): Promise<Map<string, number>> {
  const owing = new Map<string, number>()
  const seen = new Set<string>()
  for (const { registration } of delegates) {
    if (seen.has(registration.id)) continue
    seen.add(registration.id)
    const cents = await outstandingCentsOf(queries, registration)
    if (cents > 0) owing.set(registration.id, cents)
  }
  return owing
}

/**
 * Issues a certificate to each delegate of an ended event (or of one registration of it) who qualifies and has none
 * yet, and queues its e-mail; answers the certificates issued. Where the event holds certificates until payment, a
 * delegate whose registration still owes anything waits (the screen lists them) until it is paid.
 */
async function issueForEvent(
  context: BackOfficeContext,
  transaction: Transaction<Database>,
  eventId: string,
  facts: IssueFacts,
  issuedByName: string | null,
  registrationId?: string,
): Promise<Certificate[]> {
  const event = await registeredEvent(transaction, eventId)
  if (!event) return []
  const due = await uncertifiedDelegates(transaction, eventId, event, registrationId)
  const owing = facts.onlyWhenPaid ? await owingRegistrations(transaction, due) : new Map<string, number>()
  const issuedAt = wallClock(context).toISOString()
  const issued: Certificate[] = []
  for (const delegate of due) {
    if (owing.has(delegate.registrationId)) continue
    const breakdown = cpdBreakdown(facts.agenda, delegate.days, { departures: delegate.departures, overrides: facts.overrides })
    const details: CertificateDetails = {
      accreditation: facts.accreditation,
      venue: facts.venue,
      days: breakdown.days,
      ethicsMinutes: breakdown.ethicsMinutes,
      signatory: facts.signatory,
      // Printed only where the event is accredited now: a number given for it stays with the delegate otherwise.
      ...(facts.accreditation && delegate.professionalRegistrationNumber ? { professionalRegistrationNumber: delegate.professionalRegistrationNumber } : {}),
    }
    issued.push(
      await insertCertificate(
        transaction,
        context.links,
        {
          delegate_id: delegate.delegateId,
          registration_id: delegate.registrationId,
          event_id: eventId,
          name: delegate.name,
          event_title: event.title,
          days: JSON.stringify(delegate.days),
          cpd_minutes: breakdown.totalMinutes,
          organiser: facts.organiser,
          issued_at: issuedAt,
          issued_by_name: issuedByName,
          details: JSON.stringify(details),
        },
        delegate.email,
      ),
    )
  }
  return issued
}

/**
 * A registration was just paid in full (a bank transfer recorded, a card payment confirmed): the certificates its
 * delegates were waiting for are issued now when the event has ended, rather than at the next hourly round. Runs
 * after the payment has committed; answers how many were issued.
 */
export async function issueCertificatesOfPaidRegistration(context: BackOfficeContext, registrationId: string): Promise<number> {
  const row = await context.db.kysely
    .selectFrom('registrations')
    .select(['event_id', 'event_slug', 'event_end'])
    .where('id', '=', registrationId)
    .executeTakeFirst()
  if (!row || !eventHasEnded({ end: row.event_end }, businessClock(context))) return 0
  const eventId = eventKeyOf(row)
  const facts = await issueFacts(context, eventId)
  const issued = await context.db.writeTransaction((transaction) => issueForEvent(context, transaction, eventId, facts, null, registrationId))
  return issued.length
}

function eventHasEnded(event: { end: string }, now: Date): boolean {
  return now.getTime() >= new Date(event.end).getTime()
}

/** How long after an event the round still issues certificates for attendance recorded late. */
const ROUND_LOOKBACK_DAYS = 30

/**
 * The round after the events: for each event that ended (by the business clock) in the last 30 days, issues the
 * certificates due. Answers how many were issued.
 */
export async function issueDueCertificates(context: BackOfficeContext): Promise<number> {
  const now = businessClock(context)
  const since = DateTime.fromJSDate(now).minus({ days: ROUND_LOOKBACK_DAYS }).toUTC().toISO()!
  const ended = await context.db.kysely
    .selectFrom('registrations')
    .select(['event_id', 'event_slug', 'event_end'])
    .distinct()
    .where('event_end', '<=', now.toISOString())
    .where('event_end', '>=', since)
    .execute()
  const eventIds = [...new Set(ended.filter((row) => eventHasEnded({ end: row.event_end }, now)).map((row) => eventKeyOf(row)))]
  let issued = 0
  for (const eventId of eventIds) {
    const facts = await issueFacts(context, eventId)
    issued += (await context.db.writeTransaction((transaction) => issueForEvent(context, transaction, eventId, facts, null))).length
  }
  return issued
}

/** How often the round looks for ended events: hourly. */
const CERTIFICATE_ROUND_INTERVAL_MS = 60 * 60 * 1000

/** Runs the certificates' round now and then hourly in the background; stop it before closing the database. */
export function startCertificateRounds(options: { context: BackOfficeContext; onQueued: () => void; log: (line: string) => void; intervalMs?: number }): {
  stop(): Promise<void>
} {
  return startRecurringRound(
    'certificates',
    async () => {
      if ((await issueDueCertificates(options.context)) > 0) options.onQueued()
    },
    { intervalMs: options.intervalMs ?? CERTIFICATE_ROUND_INTERVAL_MS, log: options.log },
  )
}

const eventIdField = z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required')))
const numberField = z.pipe(
  z.transform((value: unknown) => normaliseCertificateNumber(singleLine(value)) ?? ''),
  z.string().check(z.minLength(1, 'required')),
)

/** Staff's "Issue certificates" of an event: the event's back-office key. */
export const issueCertificatesSchema = z.pipe(ownFields, z.object({ eventId: eventIdField }))

/** Staff issue an ended event's certificates now (those the round has not issued yet). */
export const issueCertificates = staffCommand(issueCertificatesSchema, async (context, input, actor) => {
  const facts = await issueFacts(context, input.eventId)
  const now = businessClock(context)
  return async (transaction): Promise<CommandOutcome<{ issued: number }>> => {
    const event = await registeredEvent(transaction, input.eventId)
    if (!event) throw new BackOfficeError('not-found', { missing: 'event-registrations' })
    if (!eventHasEnded(event, now)) throw new BackOfficeError('event-not-ended')
    const issued = await issueForEvent(context, transaction, input.eventId, facts, actor.name)
    return {
      result: { issued: issued.length },
      audit: [{ action: 'certificates-issued', subjectType: 'event', subjectId: input.eventId, after: { numbers: issued.map((c) => c.number) } }],
      mailQueued: issued.length > 0,
    }
  }
})

/** A certificate by its number, as the resend and revoke forms send it. */
export const certificateNumberSchema = z.pipe(ownFields, z.object({ number: numberField }))

async function certificateInForce(transaction: Transaction<Database>, number: string) {
  const row = await transaction
    .selectFrom('certificates')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'certificates.delegate_id')
    .selectAll('certificates')
    .select('registration_delegates.email')
    .where('certificates.number', '=', number)
    .executeTakeFirst()
  if (!row) throw new BackOfficeError('not-found', { missing: 'certificate', number })
  const certificate = certificateOf(row)
  if (certificate.state === 'revoked') throw new BackOfficeError('certificate-revoked')
  if (certificate.state === 'replaced') throw new BackOfficeError('certificate-replaced')
  return { row, certificate }
}

/** Sends a certificate in force to its delegate again. */
export const resendCertificate = staffCommand(certificateNumberSchema, async (context, input) => {
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<{ number: string }>> => {
    const { row, certificate } = await certificateInForce(transaction, input.number)
    if (row.email === '') throw new BackOfficeError('personal-data-erased', { whose: 'delegate' })
    const mail = certificateMail(certificate, row.email, context.links.certificate(certificate.number))
    await enqueueMails(transaction, row.registration_id, [{ topic: 'certificate', mail }], at)
    return {
      result: { number: certificate.number },
      audit: [{ action: 'certificate-resent', subjectType: 'certificate', subjectId: certificate.number }],
      mailQueued: true,
    }
  }
})

/** Revokes a certificate in force: its verification page says so from now on. */
export const revokeCertificate = staffCommand(certificateNumberSchema, async (context, input, actor) => {
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<{ number: string }>> => {
    const { certificate } = await certificateInForce(transaction, input.number)
    await transaction
      .updateTable('certificates')
      .set({ revoked_at: at.toISOString(), revoked_by_name: actor.name })
      .where('number', '=', certificate.number)
      .execute()
    return {
      result: { number: certificate.number },
      audit: [
        { action: 'certificate-revoked', subjectType: 'certificate', subjectId: certificate.number, before: { state: 'valid' }, after: { state: 'revoked' } },
      ],
    }
  }
})

/** Staff's CPD hours of one day of an event ("" to count the agenda again), in steps of half an hour. */
export const cpdDayHoursSchema = z.pipe(
  ownFields,
  z.object({
    eventId: eventIdField,
    date: z.pipe(z.transform(singleLine), z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid-date'))),
    hours: z.pipe(
      z.transform((value: unknown) => singleLine(value).replace(',', '.')),
      z
        .string()
        .check(
          z.refine(
            (value) => value === '' || (/^\d{1,2}(\.\d+)?$/.test(value) && Number(value) * 2 === Math.round(Number(value) * 2) && Number(value) <= 24),
            'invalid-cpd-hours',
          ),
        ),
    ),
  }),
)

/**
 * Saves (or clears) staff's CPD hours of one day of an event; certificates issued from then on use them. A date not of
 * the event, or more hours than the day's programme spans (first session's start to last session's end), is refused.
 */
export const saveCpdDayHours = staffCommand(cpdDayHoursSchema, async (context, input, actor) => {
  const at = wallClock(context)
  const agendaDay = (await catalogEventOf(context.catalog, context.db.kysely, input.eventId))?.agendaDays?.find((day) => day.date === input.date)
  return async (transaction): Promise<CommandOutcome<{ date: string; hours: number | undefined }>> => {
    const event = await registeredEvent(transaction, input.eventId)
    if (!event) throw new BackOfficeError('not-found', { missing: 'event-registrations' })
    if (!checkInDays(event.start, event.end).includes(input.date)) throw new BackOfficeError('not-an-event-day', {}, 'date')
    const minutes = input.hours === '' ? undefined : Number(input.hours) * 60
    const limit = programmeMinutes(agendaDay)
    if (minutes !== undefined && minutes > limit) {
      throw new BackOfficeError('cpd-hours-beyond-day', { day: formatDay(input.date), hours: formatCpdHours(roundedDownToHalfHour(limit)) }, 'hours')
    }
    const before = (await dayHoursOverrides(transaction, input.eventId))[input.date]
    if (minutes === undefined) {
      await transaction.deleteFrom('event_cpd_day_hours').where('event_id', '=', input.eventId).where('date', '=', input.date).execute()
    } else {
      const row = { minutes, updated_at: at.toISOString(), updated_by_name: actor.name }
      await transaction
        .insertInto('event_cpd_day_hours')
        .values({ event_id: input.eventId, date: input.date, ...row })
        .onConflict((conflict) => conflict.columns(['event_id', 'date']).doUpdateSet(row))
        .execute()
    }
    const hoursOf = (value: number | undefined) => (value === undefined ? null : value / 60)
    return {
      result: { date: input.date, hours: minutes === undefined ? undefined : minutes / 60 },
      audit: [
        {
          action: 'cpd-hours-saved',
          subjectType: 'event',
          subjectId: input.eventId,
          before: { date: input.date, hours: hoursOf(before) },
          after: { date: input.date, hours: hoursOf(minutes) },
        },
      ],
    }
  }
})

/**
 * A delegate's name corrected after their certificate was issued: a new certificate (new number, same days and hours)
 * replaces the one in force, whose verification page then names its successor; the new one is e-mailed. Answers the
 * new number, or undefined when the delegate had none in force.
 */
export async function replaceCertificateForNewName(
  transaction: Transaction<Database>,
  links: SiteLinks,
  delegate: { id: string; name: string; email: string },
  at: Date,
): Promise<string | undefined> {
  const old = await transaction
    .selectFrom('certificates')
    .selectAll()
    .where('delegate_id', '=', delegate.id)
    .where('revoked_at', 'is', null)
    .where('replaced_by', 'is', null)
    .executeTakeFirst()
  if (!old || old.name === delegate.name) return undefined
  const number = newCertificateNumber()
  await transaction.updateTable('certificates').set({ replaced_by: number }).where('id', '=', old.id).execute()
  const row: CertificateRow = { ...old, id: newId(), number, name: delegate.name, issued_at: at.toISOString(), replaced_by: null }
  await transaction.insertInto('certificates').values(row).execute()
  if (delegate.email !== '') {
    const certificate = certificateOf(row)
    await enqueueMails(
      transaction,
      row.registration_id,
      [{ topic: 'certificate', mail: certificateMail(certificate, delegate.email, links.certificate(number)) }],
      at,
    )
  }
  return number
}

/** An event's certificates screen: the event, its CPD hours day by day, who waits for payment and every certificate issued. */
export interface CertificatesScreen {
  event: { id: string; title: string; start: string; end: string }
  ended: boolean
  /** Each day of the event: the agenda's hours, staff's hours when set, and the hours a certificate counts for it. */
  days: Array<{ date: string; dateText: string; agendaHoursText: string; hours?: number | undefined; hoursText: string; ethicsHoursText: string }>
  /** The hours of attending every day, as a certificate would count them. */
  totalHoursText: string
  /** Whether the event holds certificates until a registration is paid in full. */
  onlyWhenPaid: boolean
  /** Delegates who attended and wait for their registration to be paid in full before their certificate is issued. */
  waitingForPayment: Array<{ name: string; reference: string; outstandingCents: number }>
  certificates: Array<Certificate & { reference: string }>
}

/** The certificates screen of an event; undefined when it has no registration. */
export async function certificatesScreen(context: BackOfficeContext, eventId: string): Promise<CertificatesScreen | undefined> {
  const event = await registeredEvent(context.db.kysely, eventId)
  if (!event) return undefined
  const [facts, rows, due] = await Promise.all([
    issueFacts(context, eventId),
    context.db.kysely
      .selectFrom('certificates')
      .innerJoin('registrations', 'registrations.id', 'certificates.registration_id')
      .selectAll('certificates')
      .select('registrations.reference')
      .where('certificates.event_id', '=', eventId)
      .orderBy('certificates.name')
      .orderBy('certificates.issued_at')
      .execute(),
    uncertifiedDelegates(context.db.kysely, eventId, event),
  ])
  const owing = facts.onlyWhenPaid ? await owingRegistrations(context.db.kysely, due) : new Map<string, number>()
  const dates = checkInDays(event.start, event.end)
  const byAgenda = cpdBreakdown(facts.agenda, dates)
  const counted = cpdBreakdown(facts.agenda, dates, { overrides: facts.overrides })
  return {
    event,
    ended: eventHasEnded(event, businessClock(context)),
    days: dates.map((date, index) => {
      const override = facts.overrides[date]
      const minutes = counted.days[index]!.minutes
      const ethics = cpdBreakdown(facts.agenda, [date], { overrides: facts.overrides }).ethicsMinutes
      return {
        date,
        dateText: formatDay(date),
        agendaHoursText: formatCpdHours(byAgenda.days[index]!.minutes),
        hours: override === undefined ? undefined : override / 60,
        hoursText: formatCpdHours(minutes),
        ethicsHoursText: formatCpdHours(ethics),
      }
    }),
    totalHoursText: formatCpdHours(counted.totalMinutes),
    onlyWhenPaid: facts.onlyWhenPaid,
    waitingForPayment: due
      .filter((delegate) => owing.has(delegate.registrationId))
      .map((delegate) => ({ name: delegate.name, reference: delegate.registration.reference, outstandingCents: owing.get(delegate.registrationId)! })),
    certificates: rows.map((row) => ({ ...certificateOf(row), reference: row.reference })),
  }
}

/** Every certificate in force of an event as one ZIP of PDFs; undefined when it has none. */
export async function certificatesZip(context: { db: CoreDatabase; links: SiteLinks }, eventId: string): Promise<Uint8Array | undefined> {
  const rows = await context.db.kysely
    .selectFrom('certificates')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('revoked_at', 'is', null)
    .where('replaced_by', 'is', null)
    .orderBy('name')
    .execute()
  if (rows.length === 0) return undefined
  const files: Record<string, Uint8Array> = {}
  // The signature is loaded once for the lot (the certificates of one event share their signatory, or nearly all).
  const signatures = new Map<string, Promise<Buffer | undefined>>()
  for (const row of rows) {
    const certificate = certificateOf(row)
    const url = certificate.details?.signatory?.signatureUrl ?? ''
    if (!signatures.has(url)) signatures.set(url, loadSignature(certificate.details))
    files[certificateFilename(certificate.number)] = await renderCertificatePdf(
      certificate,
      context.links.certificate(certificate.number),
      await signatures.get(url),
    )
  }
  // PDFs are compressed already: stored as they are.
  return zipSync(files, { level: 0 })
}

/** The certificates of a registration's delegates (in force, and those replaced or revoked), for its status page. */
export async function certificatesOfRegistration(queries: Kysely<Database>, registrationId: string): Promise<Certificate[]> {
  const rows = await queries.selectFrom('certificates').selectAll().where('registration_id', '=', registrationId).orderBy('name').orderBy('issued_at').execute()
  return rows.map(certificateOf)
}

/** The certificates shown on a registration's private status page, for the holder of its link; undefined for a wrong link. */
export async function registrationCertificates(context: { db: CoreDatabase }, reference: string, secret: string): Promise<Certificate[] | undefined> {
  const registration = await findRegistrationByReferenceAndSecret(context.db.kysely, reference, secret)
  return registration && certificatesOfRegistration(context.db.kysely, registration.id)
}

registerAttachmentKind('certificate', withRenderedCertificates)
