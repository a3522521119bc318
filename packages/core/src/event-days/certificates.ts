import { TIME_ZONE } from '@events/pricing'
import { zipSync } from 'fflate'
import { DateTime } from 'luxon'
import type { Kysely, Transaction } from 'kysely'
import QRCode from 'qrcode'
import * as z from 'zod/mini'
import type { AgendaDay, EventCatalog } from '../catalog.ts'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { CoreDatabase, Database } from '../db/database.ts'
import { registerAttachmentKind } from '../outbox/attachments.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { html } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { MailAttachment, OutgoingMail } from '../mail/outgoing-mail.ts'
import { documentBytes, newPdfDocument, registerDejaVuFonts } from '../pdf/fonts.ts'
import { newId } from '../ids.ts'
import { startRecurringRound } from '../recurring-round.ts'
import { eventKeyOf, registrationsOfEvent } from '../registration/event-ids.ts'
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
 * The CPD minutes of the agenda's sessions on one day: breaks (registration, tea, lunch) left out and, when the
 * delegate left early (`leftAtMinute`, minutes since midnight), only the sessions that had ended by then.
 */
function dayCpdMinutes(agendaDay: AgendaDay, leftAtMinute: number | undefined): number {
  return agendaDay.sessions
    .filter((session) => !session.isBreak)
    .filter((session) => leftAtMinute === undefined || (minuteOfDay(session.end) ?? Number.POSITIVE_INFINITY) <= leftAtMinute)
    .reduce((sum, session) => sum + sessionMinutes(session), 0)
}

/**
 * The CPD minutes of the agenda's sessions on the days attended, breaks (registration, tea, lunch) left out, rounded
 * down to the half hour: a certificate never claims time the programme did not give. On a day the delegate left early
 * (`departures`: day to minute of the day, Johannesburg), only the sessions that ended before they left count.
 */
export function agendaCpdMinutes(agendaDays: readonly AgendaDay[], days: readonly string[], departures: Readonly<Record<string, number>> = {}): number {
  const total = agendaDays.filter((day) => days.includes(day.date)).reduce((sum, day) => sum + dayCpdMinutes(day, departures[day.date]), 0)
  return roundedDownToHalfHour(total)
}

function roundedDownToHalfHour(minutes: number): number {
  return Math.floor(minutes / 30) * 30
}

/** "1 hour", "6 hours", "12.5 hours". */
export function formatCpdHours(minutes: number): string {
  const hours = minutes / 60
  return `${hours.toLocaleString('en-ZA', { maximumFractionDigits: 1 }).replace(',', '.')} ${hours === 1 ? 'hour' : 'hours'}`
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

/** The certificate as a one-page A4 landscape PDF with the QR code of its verification page; the same bytes every time. */
async function renderCertificatePdf(certificate: Certificate, verificationUrl: string): Promise<Buffer> {
  const issuedAt = new Date(certificate.issuedAt)
  const doc = newPdfDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 60,
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
  doc
    .lineWidth(2)
    .strokeColor('#1f4e79')
    .rect(30, 30, doc.page.width - 60, doc.page.height - 60)
    .stroke()
  doc.fillColor('#1a1a1a')
  doc.font(BOLD).fontSize(30).text('Certificate of Attendance', 60, 80, { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.8).font(REGULAR).fontSize(13).text('This certifies that', { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.4).font(BOLD).fontSize(26).text(certificate.name, { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.4).font(REGULAR).fontSize(13).text('attended', { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.4).font(BOLD).fontSize(18).text(certificate.eventTitle, { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.6).font(REGULAR).fontSize(13).text(`on ${certificate.daysText}`, { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.3).text(`CPD hours: ${certificate.cpdHoursText}`, { width, align: 'center', features: PLAIN_LETTERS })
  doc.moveDown(0.3).text(`Organised by ${certificate.organiser}`, { width, align: 'center', features: PLAIN_LETTERS })

  const qrSize = 100
  const bottom = doc.page.height - 60 - qrSize
  doc.image(await QRCode.toBuffer(verificationUrl, QR_OPTIONS), doc.page.width - 60 - qrSize, bottom, { width: qrSize, height: qrSize })
  doc
    .font(REGULAR)
    .fontSize(10)
    .fillColor('#555555')
    .text(`Certificate number: ${certificate.number}`, 60, bottom + 40, { width: width - qrSize - 20, features: PLAIN_LETTERS })
    .text(`Verify at ${verificationUrl}`, { width: width - qrSize - 20, features: PLAIN_LETTERS })
  doc.end()
  return finished
}

/** The PDF of a stored certificate by its number; undefined for a number never issued. */
export async function certificatePdf(context: { db: CoreDatabase; links: SiteLinks }, number: string): Promise<Buffer | undefined> {
  const certificate = await verifyCertificate(context, number)
  return certificate && renderCertificatePdf(certificate, context.links.certificate(certificate.number))
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
      return { ...attachment, content: (await renderCertificatePdf(found, certificate.url)).toString('base64'), encoding: 'base64' }
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
  name: string
  email: string
  days: string[]
  /** The days on which staff recorded that the delegate left early, with the minute of the day they left. */
  departures: Record<string, number>
}

/** The delegates of an event who attended at least one of `days`, not cancelled and not erased, with the days they attended. */
async function qualifyingDelegates(queries: Kysely<Database>, eventId: string, days: readonly string[]): Promise<QualifyingDelegate[]> {
  const delegates = queries
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .where(registrationsOfEvent(eventId))
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
      name: row.name,
      email: row.email,
      days: [],
      departures: {},
    }
    if (!delegate.days.includes(row.event_day)) delegate.days.push(row.event_day)
    byDelegate.set(row.id, delegate)
  }
  for (const row of checkedIn) if (row.left_at !== null) byDelegate.get(row.id)!.departures[row.event_day] = departureMinute(row.left_at)
  return [...byDelegate.values()].map((delegate) => ({ ...delegate, days: delegate.days.sort() })).sort((a, b) => a.name.localeCompare(b.name))
}

/** Staff's CPD minutes per day attended for an event, when they set them. */
async function cpdMinutesPerDayOverride(queries: Kysely<Database>, eventId: string): Promise<number | undefined> {
  const row = await queries.selectFrom('event_cpd_hours').select('minutes_per_day').where('event_id', '=', eventId).executeTakeFirst()
  return row?.minutes_per_day
}

/** The agenda of a registered event (from the content, by the slug its registrations have). */
async function agendaOf(catalog: EventCatalog, queries: Kysely<Database>, eventId: string): Promise<AgendaDay[]> {
  const row = await queries
    .selectFrom('registrations')
    .select('event_slug')
    .where(registrationsOfEvent(eventId))
    .orderBy('created_at', 'desc')
    .executeTakeFirst()
  const event = row && (await catalog.getEvent(row.event_slug))
  return event?.agendaDays ?? []
}

interface IssueFacts {
  agenda: AgendaDay[]
  override: number | undefined
  organiser: string
}

/**
 * A delegate's CPD minutes: the agenda's sessions on the days attended, or staff's hours per day. On a day the
 * delegate left early, staff's hours give way to the agenda's sessions that ended before they left (never more).
 */
function cpdMinutesFor(facts: IssueFacts, days: readonly string[], departures: Readonly<Record<string, number>> = {}): number {
  if (facts.override === undefined) return agendaCpdMinutes(facts.agenda, days, departures)
  const override = facts.override
  const agendaDay = (day: string) => facts.agenda.find((candidate) => candidate.date === day)
  const perDay = days.map((day) => {
    const leftAt = departures[day]
    const agenda = agendaDay(day)
    return leftAt === undefined || !agenda ? override : Math.min(override, dayCpdMinutes(agenda, leftAt))
  })
  return roundedDownToHalfHour(perDay.reduce((sum, minutes) => sum + minutes, 0))
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

/**
 * Issues a certificate to each delegate of an ended event who qualifies and has none yet (a revoked one stays
 * revoked), and queues its e-mail; answers the certificates issued.
 */
async function issueForEvent(
  context: BackOfficeContext,
  transaction: Transaction<Database>,
  eventId: string,
  facts: IssueFacts,
  issuedByName: string | null,
): Promise<Certificate[]> {
  const event = await registeredEvent(transaction, eventId)
  if (!event) return []
  const qualifying = await qualifyingDelegates(transaction, eventId, checkInDays(event.start, event.end))
  if (qualifying.length === 0) return []
  const certified = new Set(
    (
      await transaction
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
  const issuedAt = wallClock(context).toISOString()
  const issued: Certificate[] = []
  for (const delegate of qualifying) {
    if (certified.has(delegate.delegateId)) continue
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
          cpd_minutes: cpdMinutesFor(facts, delegate.days, delegate.departures),
          organiser: facts.organiser,
          issued_at: issuedAt,
          issued_by_name: issuedByName,
        },
        delegate.email,
      ),
    )
  }
  return issued
}

async function issueFacts(context: BackOfficeContext, eventId: string): Promise<IssueFacts> {
  const [agenda, override, settings] = await Promise.all([
    agendaOf(context.catalog, context.db.kysely, eventId),
    cpdMinutesPerDayOverride(context.db.kysely, eventId),
    context.catalog.getSettings(),
  ])
  return { agenda, override, organiser: settings.siteName }
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

/** Staff's CPD hours per day attended for an event ("" to count the agenda again), in steps of half an hour. */
export const cpdHoursSchema = z.pipe(
  ownFields,
  z.object({
    eventId: eventIdField,
    hoursPerDay: z.pipe(
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

/** Saves (or clears) an event's CPD hours per day attended; certificates issued from then on use them. */
export const saveCpdHours = staffCommand(cpdHoursSchema, async (context, input, actor) => {
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<{ hoursPerDay: number | undefined }>> => {
    if (!(await registeredEvent(transaction, input.eventId))) throw new BackOfficeError('not-found', { missing: 'event-registrations' })
    const before = await cpdMinutesPerDayOverride(transaction, input.eventId)
    const minutes = input.hoursPerDay === '' ? undefined : Number(input.hoursPerDay) * 60
    if (minutes === undefined) await transaction.deleteFrom('event_cpd_hours').where('event_id', '=', input.eventId).execute()
    else {
      const row = { minutes_per_day: minutes, updated_at: at.toISOString(), updated_by_name: actor.name }
      await transaction
        .insertInto('event_cpd_hours')
        .values({ event_id: input.eventId, ...row })
        .onConflict((conflict) => conflict.column('event_id').doUpdateSet(row))
        .execute()
    }
    return {
      result: { hoursPerDay: minutes === undefined ? undefined : minutes / 60 },
      audit: [
        {
          action: 'cpd-hours-saved',
          subjectType: 'event',
          subjectId: input.eventId,
          before: { hoursPerDay: before === undefined ? null : before / 60 },
          after: { hoursPerDay: minutes === undefined ? null : minutes / 60 },
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

/** An event's certificates screen: the event, its CPD hours and every certificate issued. */
export interface CertificatesScreen {
  event: { id: string; title: string; start: string; end: string }
  ended: boolean
  /** Staff's hours per day attended, when set; otherwise the agenda's sessions are counted. */
  hoursPerDay?: number | undefined
  /** The agenda's CPD hours for attending every day. */
  agendaHoursText: string
  certificates: Array<Certificate & { reference: string }>
}

/** The certificates screen of an event; undefined when it has no registration. */
export async function certificatesScreen(context: BackOfficeContext, eventId: string): Promise<CertificatesScreen | undefined> {
  const event = await registeredEvent(context.db.kysely, eventId)
  if (!event) return undefined
  const [agenda, override, rows] = await Promise.all([
    agendaOf(context.catalog, context.db.kysely, eventId),
    cpdMinutesPerDayOverride(context.db.kysely, eventId),
    context.db.kysely
      .selectFrom('certificates')
      .innerJoin('registrations', 'registrations.id', 'certificates.registration_id')
      .selectAll('certificates')
      .select('registrations.reference')
      .where('certificates.event_id', '=', eventId)
      .orderBy('certificates.name')
      .orderBy('certificates.issued_at')
      .execute(),
  ])
  return {
    event,
    ended: eventHasEnded(event, businessClock(context)),
    hoursPerDay: override === undefined ? undefined : override / 60,
    agendaHoursText: formatCpdHours(agendaCpdMinutes(agenda, checkInDays(event.start, event.end))),
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
  for (const row of rows) {
    const certificate = certificateOf(row)
    files[certificateFilename(certificate.number)] = await renderCertificatePdf(certificate, context.links.certificate(certificate.number))
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
