import { stringify } from 'csv-stringify/sync'
import { eventKeyOf, registrationsOfEvent } from '../registration/event-ids.ts'
import { businessClock, type BackOfficeContext } from './context.ts'

export interface DelegateListRow {
  reference: string
  companyName: string
  delegateName: string
  position: string
  /** Given for a CPD-accredited event (optional); empty otherwise. */
  professionalRegistrationNumber: string
  email: string
  option: string
  /** True for a delegate attending online: the venue's sign-in sheet leaves them out. */
  online: boolean
  paymentStatus: string
}

export interface DelegateList {
  /** The event as its newest registration has it (the slug and title it had then). */
  event: { id: string; slug: string; title: string; start: string; end: string; venue: { name: string; address: string } }
  /** By company, then registration, then in the order the registrant listed the delegates. */
  rows: DelegateListRow[]
}

/** An event that has registrations, with how many of them stand and how many delegates still attend. */
export interface DelegateListEvent {
  /** The event's back-office key (eventKeyOf), which a slug rename keeps. */
  id: string
  /** The slug, title and dates as its newest registration has them. */
  slug: string
  title: string
  start: string
  end: string
  registrations: number
  delegates: number
  /** True once the event is over by the business clock. */
  past: boolean
}

const COLUMNS: ReadonlyArray<{ key: keyof DelegateListRow; header: string; width: number }> = [
  { key: 'reference', header: 'Reference', width: 12 },
  { key: 'companyName', header: 'Company', width: 32 },
  { key: 'delegateName', header: 'Delegate', width: 28 },
  { key: 'position', header: 'Position', width: 24 },
  { key: 'professionalRegistrationNumber', header: 'Professional registration number', width: 20 },
  { key: 'email', header: 'E-mail', width: 32 },
  { key: 'option', header: 'Option', width: 28 },
  { key: 'paymentStatus', header: 'Payment status', width: 16 },
]

/**
 * The delegates attending an event, by its back-office key (eventKeyOf), under every slug it had (cancelled delegates
 * left out); undefined when it has none.
 */
export async function delegateList(context: BackOfficeContext, eventId: string): Promise<DelegateList | undefined> {
  const rows = await context.db.kysely
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .select([
      'registrations.reference',
      'registrations.created_at',
      'registrations.event_slug',
      'registrations.company_name',
      'registration_delegates.attendance',
      'registrations.attendance_option_label',
      'registrations.status',
      'registrations.event_title',
      'registrations.event_start',
      'registrations.event_end',
      'registrations.venue_name',
      'registrations.venue_address',
      'registration_delegates.name',
      'registration_delegates.position',
      'registration_delegates.email',
      'registration_delegates.professional_registration_number',
    ])
    .where(registrationsOfEvent(eventId))
    .where('registration_delegates.cancellation_id', 'is', null)
    .orderBy('registrations.company_name')
    .orderBy('registrations.reference')
    .orderBy('registration_delegates.ordinal')
    .execute()
  const newest = rows.reduce<(typeof rows)[number] | undefined>((found, row) => (found && found.created_at >= row.created_at ? found : row), undefined)
  if (!newest) return undefined
  return {
    event: {
      id: eventId,
      slug: newest.event_slug,
      title: newest.event_title,
      start: newest.event_start,
      end: newest.event_end,
      venue: { name: newest.venue_name, address: newest.venue_address },
    },
    rows: rows.map((row) => ({
      reference: row.reference,
      companyName: row.company_name,
      delegateName: row.name,
      position: row.position,
      professionalRegistrationNumber: row.professional_registration_number ?? '',
      email: row.email,
      option: row.attendance_option_label,
      online: row.attendance === 'online',
      paymentStatus: row.status,
    })),
  }
}

/**
 * Every event that has registrations, with its registrations and delegates: events not yet over first, soonest
 * first, then those that are over, the most recent first.
 */
export async function delegateListEvents(context: BackOfficeContext): Promise<DelegateListEvent[]> {
  const now = businessClock(context).toISOString()
  // One row for each copy of an event the registrations hold (a renamed or re-dated event has several), merged by key.
  // Counted as the dashboard counts them: registrations not cancelled as a whole, and the delegates still attending.
  const rows = await context.db.kysely
    .selectFrom('registrations')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('registration_delegates')
          .select((inner) => ['registration_id', inner.fn.countAll<number | string>().as('attending')])
          .where('cancellation_id', 'is', null)
          .groupBy('registration_id')
          .as('delegates'),
      (join) => join.onRef('delegates.registration_id', '=', 'registrations.id'),
    )
    .select((eb) => [
      'event_id',
      'event_slug',
      'event_title',
      'event_start',
      'event_end',
      eb.fn.max('created_at').as('newest'),
      eb.fn.count<number | string>('registrations.id').filterWhere('cancelled_at', 'is', null).as('registrations'),
      eb.fn.sum<number | string | null>('delegates.attending').as('delegates'),
    ])
    .groupBy(['event_id', 'event_slug', 'event_title', 'event_start', 'event_end'])
    .orderBy('newest')
    .execute()
  const eventsBy = new Map<string, DelegateListEvent>()
  for (const row of rows) {
    const key = eventKeyOf(row)
    const counted = eventsBy.get(key)
    // Ordered oldest copy first, so the newest copy's slug, title and dates are the ones kept.
    eventsBy.set(key, {
      id: key,
      slug: row.event_slug,
      title: row.event_title,
      start: row.event_start,
      end: row.event_end,
      registrations: (counted?.registrations ?? 0) + Number(row.registrations),
      delegates: (counted?.delegates ?? 0) + Number(row.delegates ?? 0),
      past: row.event_end <= now,
    })
  }
  const events = [...eventsBy.values()]
  const upcoming = events.filter((event) => !event.past).sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id))
  const past = events.filter((event) => event.past).sort((a, b) => b.start.localeCompare(a.start) || a.id.localeCompare(b.id))
  return [...upcoming, ...past]
}

// What a spreadsheet shows for each payment status: words, never the stored key.
const PAYMENT_STATUS_WORDS: Readonly<Record<string, string>> = { 'awaiting-payment': 'Awaiting payment', 'part-paid': 'Part paid', paid: 'Paid' }

/** A row as the exports write it: the payment status in words. */
function exportedRow(row: DelegateListRow): DelegateListRow {
  return { ...row, paymentStatus: paymentStatusWords(row.paymentStatus) }
}

/** A payment status as the exports and the attendance register write it. */
export function paymentStatusWords(status: string): string {
  return PAYMENT_STATUS_WORDS[status] ?? status
}

/**
 * The delegate list as CSV (RFC 4180: CRLF, quoted where needed). A cell starting with = + - or @ gets a leading '
 * so a spreadsheet shows it as text rather than running it as a formula; the byte-order mark makes Excel read UTF-8.
 */
export function delegateListCsv(list: DelegateList): string {
  return stringify(
    list.rows.map(exportedRow).map((row) => COLUMNS.map((column) => row[column.key])),
    { header: true, columns: COLUMNS.map((column) => column.header), record_delimiter: 'windows', escape_formulas: true, bom: true },
  )
}

/** The delegate list as an Excel workbook, one sheet, every cell text. */
export async function delegateListXlsx(list: DelegateList): Promise<Buffer> {
  // Loaded at the first export, not with the site: ExcelJS and what it brings hold about 8 MB of V8's heap.
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Delegates', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = COLUMNS.map((column) => ({ key: column.key, header: column.header, width: column.width }))
  sheet.getRow(1).font = { bold: true }
  for (const row of list.rows) sheet.addRow(exportedRow(row))
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
