import { stringify } from 'csv-stringify/sync'
import { businessClock, type BackOfficeContext } from './context.ts'

export interface DelegateListRow {
  reference: string
  companyName: string
  delegateName: string
  position: string
  email: string
  option: string
  paymentStatus: string
}

export interface DelegateList {
  event: { slug: string; title: string; start: string; end: string; venue: { name: string; address: string } }
  /** By company, then registration, then in the order the registrant listed the delegates. */
  rows: DelegateListRow[]
}

/** An event that has registrations, with how many delegates they list. */
export interface DelegateListEvent {
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
  { key: 'email', header: 'E-mail', width: 32 },
  { key: 'option', header: 'Option', width: 28 },
  { key: 'paymentStatus', header: 'Payment status', width: 16 },
]

/** The delegates attending an event (cancelled ones left out); undefined when it has none. */
export async function delegateList(context: BackOfficeContext, eventSlug: string): Promise<DelegateList | undefined> {
  const rows = await context.db.kysely
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .select([
      'registrations.reference',
      'registrations.company_name',
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
    ])
    .where('registrations.event_slug', '=', eventSlug)
    .where('registration_delegates.cancellation_id', 'is', null)
    .orderBy('registrations.company_name')
    .orderBy('registrations.reference')
    .orderBy('registration_delegates.ordinal')
    .execute()
  const first = rows[0]
  if (!first) return undefined
  return {
    event: {
      slug: eventSlug,
      title: first.event_title,
      start: first.event_start,
      end: first.event_end,
      venue: { name: first.venue_name, address: first.venue_address },
    },
    rows: rows.map((row) => ({
      reference: row.reference,
      companyName: row.company_name,
      delegateName: row.name,
      position: row.position,
      email: row.email,
      option: row.attendance_option_label,
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
  const rows = await context.db.kysely
    .selectFrom('registrations')
    .select((eb) => [
      'event_slug',
      eb.fn.max('event_title').as('event_title'),
      eb.fn.min('event_start').as('event_start'),
      eb.fn.max('event_end').as('event_end'),
      eb.fn.countAll<number | string>().as('registrations'),
      eb.fn.sum<number | string>('delegate_count').as('delegates'),
    ])
    .groupBy('event_slug')
    .execute()
  const events = rows.map(
    (row): DelegateListEvent => ({
      slug: row.event_slug,
      title: row.event_title,
      start: row.event_start,
      end: row.event_end,
      registrations: Number(row.registrations),
      delegates: Number(row.delegates),
      past: row.event_end <= now,
    }),
  )
  const upcoming = events.filter((event) => !event.past).sort((a, b) => a.start.localeCompare(b.start) || a.slug.localeCompare(b.slug))
  const past = events.filter((event) => event.past).sort((a, b) => b.start.localeCompare(a.start) || a.slug.localeCompare(b.slug))
  return [...upcoming, ...past]
}

/**
 * The delegate list as CSV (RFC 4180: CRLF, quoted where needed). A cell starting with = + - or @ gets a leading '
 * so a spreadsheet shows it as text rather than running it as a formula; the byte-order mark makes Excel read UTF-8.
 */
export function delegateListCsv(list: DelegateList): string {
  return stringify(
    list.rows.map((row) => COLUMNS.map((column) => row[column.key])),
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
  for (const row of list.rows) sheet.addRow(row)
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
