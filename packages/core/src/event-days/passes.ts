import type { Kysely, Transaction } from 'kysely'
import QRCode from 'qrcode'
import type { CoreDatabase, Database } from '../db/database.ts'
import { formatEventDays } from '../mail/dates.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { registerAttachmentKind } from '../outbox/attachments.ts'
import type { PassForMail } from '../mail/registration-mails.ts'
import type { SiteLinks } from '../site-links.ts'
import { findRegistrationByReferenceAndSecret } from '../registration/queries.ts'
import { formatPassCode, newPassCode, newPassToken } from './pass-codes.ts'

/** A delegate's pass as the registrant and the e-mails see it. */
export interface DelegatePass {
  /** The delegate's place in the registration (0 for the first listed). */
  ordinal: number
  name: string
  /** The code as people read it (`K7M2-Q9XD`); the QR code holds the same text. */
  code: string
  /** The private pass page's token. */
  token: string
  /** Whether the delegate attends online: their join link, no door to show the pass at. */
  online: boolean
}

/**
 * What the private pass page shows: only the delegate's name, the event, its days and the code, and whether they attend
 * online (then the page gives their join link instead of a pass for the door).
 */
export interface PassPage {
  name: string
  eventTitle: string
  days: string
  code: string
  online: boolean
}

/** A stored pass as the registration's e-mails show it: its code and the absolute link to its page. */
export function passForMail(links: SiteLinks, pass: Pick<Database['delegate_passes'], 'code' | 'token'>, ordinal: number): PassForMail {
  return { ordinal, code: formatPassCode(pass.code), url: links.delegatePass(pass.token) }
}

/** New passes for delegates being inserted (in the same transaction as the delegates). */
export function newDelegatePasses(registrationId: string, delegateIds: readonly string[], createdAt: Date): Array<Database['delegate_passes']> {
  return delegateIds.map((delegateId) => ({
    delegate_id: delegateId,
    registration_id: registrationId,
    code: newPassCode(),
    token: newPassToken(),
    created_at: createdAt.toISOString(),
  }))
}

/**
 * Gives a delegate a new pass (a new code and page token) when another person takes their place, so the pass already
 * sent to the person replaced no longer opens the door.
 */
export async function reissueDelegatePass(transaction: Transaction<Database>, delegateId: string, at: Date): Promise<{ code: string; token: string }> {
  const pass = { code: newPassCode(), token: newPassToken() }
  await transaction
    .updateTable('delegate_passes')
    .set({ ...pass, created_at: at.toISOString() })
    .where('delegate_id', '=', delegateId)
    .execute()
  return pass
}

/** The passes of a registration's delegates who still attend, in the order the registrant listed them. */
export async function passesOfRegistration(queries: Kysely<Database>, registrationId: string): Promise<DelegatePass[]> {
  const rows = await queries
    .selectFrom('delegate_passes')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'delegate_passes.delegate_id')
    .select([
      'registration_delegates.ordinal',
      'registration_delegates.name',
      'registration_delegates.attendance',
      'delegate_passes.code',
      'delegate_passes.token',
    ])
    .where('delegate_passes.registration_id', '=', registrationId)
    .where('registration_delegates.cancellation_id', 'is', null)
    .orderBy('registration_delegates.ordinal')
    .execute()
  return rows.map((row) => ({ ordinal: row.ordinal, name: row.name, code: formatPassCode(row.code), token: row.token, online: row.attendance === 'online' }))
}

/** The passes shown on a registration's private status page, for the holder of its link; undefined for a wrong link. */
export async function registrationPasses(context: { db: CoreDatabase }, reference: string, secret: string): Promise<DelegatePass[] | undefined> {
  const registration = await findRegistrationByReferenceAndSecret(context.db.kysely, reference, secret)
  if (!registration) return undefined
  return registration.cancelled_at === null ? passesOfRegistration(context.db.kysely, registration.id) : []
}

/**
 * The private pass page of a token; undefined when no pass has it, or its delegate or registration was cancelled (the
 * pass no longer admits anyone).
 */
export async function passPage(context: { db: CoreDatabase }, token: string): Promise<PassPage | undefined> {
  const row = await context.db.kysely
    .selectFrom('delegate_passes')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'delegate_passes.delegate_id')
    .innerJoin('registrations', 'registrations.id', 'delegate_passes.registration_id')
    .select([
      'registration_delegates.name',
      'registrations.event_title',
      'registrations.event_start',
      'registrations.event_end',
      'registration_delegates.attendance',
      'delegate_passes.code',
    ])
    .where('delegate_passes.token', '=', token)
    .where('registration_delegates.cancellation_id', 'is', null)
    .where('registrations.cancelled_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    name: row.name,
    eventTitle: row.event_title,
    days: formatEventDays(row.event_start, row.event_end),
    code: formatPassCode(row.code),
    online: row.attendance === 'online',
  }
}

// A pass is scanned off a phone's screen or a printout in a dim foyer: a quiet zone of four modules and medium error
// correction read reliably without making the code dense.
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const

/** A QR code as an SVG path: dark modules filled on a `size`×`size` square (the quiet zone included). */
export interface QrPath {
  size: number
  /** The dark modules, a rectangle for each run of them along a row. */
  path: string
}

/**
 * The QR code of a pass code (as `formatPassCode` writes it) as one SVG path, for pages that draw the SVG themselves
 * (React owns every element it renders, so the page hydrates whole).
 */
export function passQrPath(code: string): QrPath {
  const { modules } = QRCode.create(code, { errorCorrectionLevel: QR_OPTIONS.errorCorrectionLevel })
  const margin = QR_OPTIONS.margin
  let path = ''
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue
      let run = 1
      while (column + run < modules.size && modules.get(row, column + run)) run++
      path += `M${column + margin} ${row + margin}h${run}v1h-${run}z`
      column += run - 1
    }
  }
  return { size: modules.size + 2 * margin, path }
}

/** The QR code of a pass code as a PNG image, `scale` pixels a module (for e-mails, which do not all show SVG). */
export function passQrPng(code: string, scale = 6): Promise<Buffer> {
  return QRCode.toBuffer(code, { ...QR_OPTIONS, type: 'png', scale })
}

/** The e-mail with its QR code images drawn (a pass's, kept in the message as the text it encodes). */
async function withQrCodes(_db: CoreDatabase, mail: OutgoingMail): Promise<OutgoingMail> {
  if (!mail.attachments?.some((attachment) => attachment.qrCodeOf)) return mail
  const attachments = await Promise.all(
    mail.attachments.map(async ({ qrCodeOf, ...attachment }) =>
      qrCodeOf ? { ...attachment, content: (await passQrPng(qrCodeOf)).toString('base64'), encoding: 'base64' as const } : attachment,
    ),
  )
  return { ...mail, attachments }
}

registerAttachmentKind('pass QR code', withQrCodes)
