import { TIME_ZONE } from '@events/pricing'
import type { Kysely } from 'kysely'
import { stringify } from 'csv-stringify/sync'
import { DateTime } from 'luxon'
import { z } from 'zod'
import { formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import type { CreditNoteData } from '../cancellation/credit-note-pdf.ts'
import type { Database } from '../db/database.ts'
import { AGE_BAND_LABELS, AGE_BANDS, ageingOf, noAgeing, type Ageing } from '../invoice/ageing.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import type { TaxInvoiceData } from '../invoice/tax-invoice-pdf.ts'
import { businessClock, type BackOfficeContext } from './context.ts'
import { byEvent, registrationMoney, sumOf, type RegistrationMoney } from './event-money.ts'
import { dayIn } from './fields.ts'
import { BackOfficeError } from './errors.ts'

/** One event's money, in cents incl. VAT unless named otherwise. */
export interface EventFinance {
  /** The event's back-office key (eventKeyOf); title and start as its newest registration has them. */
  eventId: string
  eventTitle: string
  eventStart: string
  registrations: number
  /** Delegates still attending (cancelled ones left out). */
  delegatesAttending: number
  /** The tax invoices issued: every registration's total. */
  invoicedCents: number
  /** What the credit notes of cancellations credited. */
  creditedCents: number
  /** Invoiced less credited: what the event's registrations owe in all, split below into excl. VAT and VAT. */
  netCents: number
  netExclVatCents: number
  netVatCents: number
  /** Bank transfers recorded, and card payments. */
  receivedCents: number
  /** Refunds that went back: card refunds the provider made and bank refunds paid out. */
  refundedCents: number
  /** What registrations still owe: each one's net less what it paid, never below nothing. */
  outstandingCents: number
  /** What is outstanding by how long ago each registration was first invoiced, on the business day. */
  ageing: Ageing
  /** Sponsorship income: the approved deals' tax invoices, excl. VAT and incl. VAT (not in the figures above). */
  sponsorshipExclVatCents: number
  sponsorshipCents: number
}

export interface EventFinanceReport {
  events: EventFinance[]
  totals: Omit<EventFinance, 'eventId' | 'eventTitle' | 'eventStart'>
}

const EVENT_AMOUNTS = [
  'invoicedCents',
  'creditedCents',
  'netCents',
  'netExclVatCents',
  'netVatCents',
  'receivedCents',
  'refundedCents',
  'outstandingCents',
  'sponsorshipExclVatCents',
  'sponsorshipCents',
] as const
const EVENT_COUNTS = ['registrations', 'delegatesAttending'] as const

/** Every event with registrations, soonest first, with what was invoiced, credited, received, refunded and is owed. */
export async function eventFinanceReport(context: BackOfficeContext): Promise<EventFinanceReport> {
  const deals = await context.db.kysely
    .selectFrom('sponsorship_deals')
    .select(['event_id', 'event_title', 'event_start', 'agreed_price_cents', 'total_cents'])
    .where('status', '=', 'approved')
    .execute()
  const sponsorship = (eventKey: string, figure: 'agreed_price_cents' | 'total_cents') =>
    deals.filter((deal) => deal.event_id === eventKey).reduce((sum, deal) => sum + deal[figure], 0)
  const today = dayIn(businessClock(context))
  const events = byEvent(await registrationMoney(context.db.kysely)).map((event): EventFinance => {
    const sum = (figure: (registration: RegistrationMoney) => number) => sumOf(event.registrations, figure)
    return {
      sponsorshipExclVatCents: sponsorship(event.eventKey, 'agreed_price_cents'),
      sponsorshipCents: sponsorship(event.eventKey, 'total_cents'),
      eventId: event.eventKey,
      eventTitle: event.eventTitle,
      eventStart: event.eventStart,
      registrations: event.registrations.filter((registration) => registration.standing).length,
      delegatesAttending: sum((registration) => registration.delegatesAttending),
      invoicedCents: sum((registration) => registration.invoicedCents),
      creditedCents: sum((registration) => registration.creditedCents),
      netCents: sum((registration) => registration.invoicedCents - registration.creditedCents),
      netExclVatCents: sum((registration) => registration.invoicedExclVatCents - registration.creditedExclVatCents),
      netVatCents: sum((registration) => registration.invoicedVatCents - registration.creditedVatCents),
      receivedCents: sum((registration) => registration.receivedCents),
      refundedCents: sum((registration) => registration.refundedCents),
      outstandingCents: sum((registration) => registration.outstandingCents),
      ageing: ageingOf(
        event.registrations.map((registration) => ({ invoicedOn: registration.invoicedOn, owedCents: registration.outstandingCents })),
        today,
      ),
    }
  })
  // An event sponsored before anyone registered is listed with its sponsorship alone.
  for (const deal of deals) {
    if (events.some((event) => event.eventId === deal.event_id)) continue
    const nothing = Object.fromEntries([...EVENT_COUNTS, ...EVENT_AMOUNTS].map((key) => [key, 0])) as Omit<EventFinanceReport['totals'], 'ageing'>
    events.push({
      ...nothing,
      ageing: noAgeing(),
      eventId: deal.event_id,
      eventTitle: deal.event_title,
      eventStart: deal.event_start,
      sponsorshipExclVatCents: sponsorship(deal.event_id, 'agreed_price_cents'),
      sponsorshipCents: sponsorship(deal.event_id, 'total_cents'),
    })
  }
  events.sort((a, b) => a.eventStart.localeCompare(b.eventStart))
  const totals = {
    ...Object.fromEntries([...EVENT_COUNTS, ...EVENT_AMOUNTS].map((key) => [key, events.reduce((sum, event) => sum + event[key], 0)])),
    ageing: Object.fromEntries(AGE_BANDS.map((band) => [band, events.reduce((sum, event) => sum + event.ageing[band], 0)])) as Ageing,
  } as EventFinanceReport['totals']
  return { events, totals }
}

/** A tax document issued in a VAT period: a tax invoice, or a credit note (its amounts negative, as they reduce output tax). */
export interface VatRegisterEntry {
  kind: 'tax-invoice' | 'credit-note'
  number: string
  /** The day of issue in Johannesburg, YYYY-MM-DD. */
  issuedOn: string
  registrationReference: string
  customer: string
  customerVatNumber: string
  exclVatCents: number
  vatCents: number
  inclVatCents: number
}

interface VatTotals {
  exclVatCents: number
  vatCents: number
  inclVatCents: number
}

export interface VatRegister {
  from: string
  to: string
  /** By day of issue, tax invoices before credit notes on a day, then by number. */
  entries: VatRegisterEntry[]
  /** The tax invoices' sums: the output tax of the period. */
  invoices: VatTotals & { count: number }
  /** The credit notes' sums, as positive amounts: the output tax they take back. */
  creditNotes: VatTotals & { count: number }
  /** Invoices less credit notes. */
  net: VatTotals
}

const isoDay = z.iso.date()

/** A VAT period as the form sends it: two days (inclusive), the first not after the last. */
export const vatPeriodSchema = z.object({ from: isoDay, to: isoDay }).refine((period) => period.from <= period.to, { path: ['to'] })

export type VatPeriod = z.infer<typeof vatPeriodSchema>

function startOfDay(day: string): string {
  return DateTime.fromISO(day, { zone: TIME_ZONE }).startOf('day').toUTC().toISO()!
}

export function dayOf(instant: string): string {
  return DateTime.fromISO(instant, { zone: 'utc' }).setZone(TIME_ZONE).toISODate()!
}

/** A tax document of a VAT period with what an accounting package also asks: when it is due, where the customer is. */
export interface VatDocument extends VatRegisterEntry {
  /** An invoice's last day for payment (its issue plus the payment terms); a credit note's day of issue. */
  dueOn: string
  customerAddressLines: string[]
  /** The tax invoice a credit note credits; '' for an invoice. */
  creditedInvoiceNumber: string
}

/** Refuses a period that does not read or ends before it starts, naming the field at fault; answers it parsed. */
function parsedPeriod(period: { from: string; to: string }): VatPeriod {
  const parsed = vatPeriodSchema.safeParse(period)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const field = String(issue.path[0] ?? 'from')
  if (issue.code === 'custom') throw new BackOfficeError('invalid-input', { problem: 'period-reversed' }, field)
  throw new BackOfficeError('invalid-input', { problem: 'date-format', field }, field)
}

/**
 * Every tax invoice and credit note issued in a period (days in Johannesburg, inclusive), as the stored documents say
 * it, read through `kysely` (a transaction's, for a command): the VAT register's lines and the accounting export's.
 */
export async function vatDocuments(kysely: Kysely<Database>, period: { from: string; to: string }): Promise<VatDocument[]> {
  const { from, to } = parsedPeriod(period)
  const start = startOfDay(from)
  const end = startOfDay(DateTime.fromISO(to).plus({ days: 1 }).toISODate()!)
  const [invoices, creditNotes, sponsorshipInvoices, sponsorshipCreditNotes] = await Promise.all([
    kysely
      .selectFrom('invoices')
      .innerJoin('registrations', 'registrations.id', 'invoices.registration_id')
      .select(['invoices.number', 'invoices.issued_at', 'invoices.data_json', 'registrations.reference'])
      .where('invoices.issued_at', '>=', start)
      .where('invoices.issued_at', '<', end)
      .execute(),
    kysely
      .selectFrom('credit_notes')
      .innerJoin('registrations', 'registrations.id', 'credit_notes.registration_id')
      .select(['credit_notes.number', 'credit_notes.issued_at', 'credit_notes.data_json', 'registrations.reference'])
      .where('credit_notes.issued_at', '>=', start)
      .where('credit_notes.issued_at', '<', end)
      .execute(),
    // Sponsorship deals' tax invoices, numbered in the same series, under the deal's reference.
    kysely
      .selectFrom('sponsorship_invoices')
      .innerJoin('sponsorship_deals', 'sponsorship_deals.id', 'sponsorship_invoices.deal_id')
      .select(['sponsorship_invoices.number', 'sponsorship_invoices.issued_at', 'sponsorship_invoices.data_json', 'sponsorship_deals.reference'])
      .where('sponsorship_invoices.issued_at', '>=', start)
      .where('sponsorship_invoices.issued_at', '<', end)
      .execute(),
    kysely
      .selectFrom('sponsorship_credit_notes')
      .innerJoin('sponsorship_deals', 'sponsorship_deals.id', 'sponsorship_credit_notes.deal_id')
      .select(['sponsorship_credit_notes.number', 'sponsorship_credit_notes.issued_at', 'sponsorship_credit_notes.data_json', 'sponsorship_deals.reference'])
      .where('sponsorship_credit_notes.issued_at', '>=', start)
      .where('sponsorship_credit_notes.issued_at', '<', end)
      .execute(),
  ])
  // A tax invoice and a credit note are listed alike; a credit note's amounts are negative, as it reduces output tax.
  const entryOf = (
    kind: VatRegisterEntry['kind'],
    number: string,
    row: { issued_at: string; reference: string },
    recipient: { name?: string; vatNumber?: string; addressLines?: string[] } | undefined,
    amounts: VatTotals,
    terms: { paymentTermsDays: number; creditedInvoiceNumber: string },
  ): VatDocument => ({
    kind,
    number,
    issuedOn: dayOf(row.issued_at),
    registrationReference: row.reference,
    customer: recipient?.name ?? '',
    customerVatNumber: recipient?.vatNumber ?? '',
    ...amounts,
    dueOn: DateTime.fromISO(dayOf(row.issued_at)).plus({ days: terms.paymentTermsDays }).toISODate()!,
    customerAddressLines: recipient?.addressLines ?? [],
    creditedInvoiceNumber: terms.creditedInvoiceNumber,
  })
  return [
    ...[...invoices, ...sponsorshipInvoices].map((row) => {
      const data = JSON.parse(row.data_json ?? '{}') as Partial<TaxInvoiceData>
      return entryOf(
        'tax-invoice',
        formatInvoiceNumber(Number(row.number)),
        row,
        data.recipient,
        {
          exclVatCents: data.subtotalCents ?? 0,
          vatCents: data.vatCents ?? 0,
          inclVatCents: data.totalCents ?? 0,
        },
        { paymentTermsDays: data.paymentTermsDays ?? 0, creditedInvoiceNumber: '' },
      )
    }),
    ...[...creditNotes, ...sponsorshipCreditNotes].map((row) => {
      const data = JSON.parse(row.data_json) as Partial<CreditNoteData>
      return entryOf(
        'credit-note',
        formatCreditNoteNumber(Number(row.number)),
        row,
        data.recipient,
        {
          exclVatCents: -(data.creditedSubtotalCents ?? 0),
          vatCents: -(data.creditedVatCents ?? 0),
          inclVatCents: -(data.creditedTotalCents ?? 0),
        },
        { paymentTermsDays: 0, creditedInvoiceNumber: data.invoiceNumber ?? '' },
      )
    }),
  ].sort((a, b) => a.issuedOn.localeCompare(b.issuedOn) || a.kind.localeCompare(b.kind) * -1 || a.number.localeCompare(b.number))
}

/**
 * Every tax invoice and credit note issued in a period (days in Johannesburg, inclusive), as the documents say it,
 * with the totals of output tax and of credit notes for the VAT201 return. A period that does not read is refused.
 */
export async function vatRegister(context: BackOfficeContext, period: { from: string; to: string }): Promise<VatRegister> {
  const { from, to } = parsedPeriod(period)
  const entries = (await vatDocuments(context.db.kysely, { from, to })).map(
    ({ dueOn: _dueOn, customerAddressLines: _addressLines, creditedInvoiceNumber: _credited, ...entry }): VatRegisterEntry => entry,
  )
  const totalsOf = (kind: VatRegisterEntry['kind'], sign: 1 | -1) => {
    const documents = entries.filter((entry) => entry.kind === kind)
    return {
      count: documents.length,
      exclVatCents: documents.reduce((sum, entry) => sum + sign * entry.exclVatCents, 0),
      vatCents: documents.reduce((sum, entry) => sum + sign * entry.vatCents, 0),
      inclVatCents: documents.reduce((sum, entry) => sum + sign * entry.inclVatCents, 0),
    }
  }
  const invoiceTotals = totalsOf('tax-invoice', 1)
  const creditTotals = totalsOf('credit-note', -1)
  return {
    from,
    to,
    entries,
    invoices: invoiceTotals,
    creditNotes: creditTotals,
    net: {
      exclVatCents: invoiceTotals.exclVatCents - creditTotals.exclVatCents,
      vatCents: invoiceTotals.vatCents - creditTotals.vatCents,
      inclVatCents: invoiceTotals.inclVatCents - creditTotals.inclVatCents,
    },
  }
}

/** Rands as a spreadsheet reads them: a number with two decimals, a point, no thousands separator. */
export function rands(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const absolute = Math.abs(cents)
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`
}

const DOCUMENT_KINDS: Record<VatRegisterEntry['kind'], string> = { 'tax-invoice': 'Tax invoice', 'credit-note': 'Credit note' }

const VAT_REGISTER_HEADINGS = ['Document', 'Number', 'Date', 'Registration', 'Customer', 'Customer VAT number', 'Excl. VAT (R)', 'VAT (R)', 'Incl. VAT (R)']

function vatRegisterRows(register: VatRegister): Array<Array<string | number>> {
  return register.entries.map((entry) => [
    DOCUMENT_KINDS[entry.kind],
    entry.number,
    entry.issuedOn,
    entry.registrationReference,
    entry.customer,
    entry.customerVatNumber,
    entry.exclVatCents,
    entry.vatCents,
    entry.inclVatCents,
  ])
}

function vatRegisterTotalRows(register: VatRegister): Array<[string, VatTotals]> {
  return [
    [`Tax invoices (${register.invoices.count}): output tax`, register.invoices],
    [`Credit notes (${register.creditNotes.count})`, register.creditNotes],
    ['Net of credit notes', register.net],
  ]
}

/**
 * The VAT register as CSV (RFC 4180, CRLF, a byte-order mark for Excel, formulas escaped): one row a document, amounts
 * in rands with a decimal point, then the totals rows.
 */
export function vatRegisterCsv(register: VatRegister): string {
  // Amounts are written as numbers (a credit note's with its minus sign); only text cells are kept from running as
  // formulas, as csv-stringify's escape_formulas would also turn "-2697.00" into text.
  const documents = vatRegisterRows(register).map((row) => row.map((cell) => (typeof cell === 'number' ? rands(cell) : inertText(cell))))
  const totals = vatRegisterTotalRows(register).map(([label, sums]) => [
    label,
    '',
    '',
    '',
    '',
    '',
    rands(sums.exclVatCents),
    rands(sums.vatCents),
    rands(sums.inclVatCents),
  ])
  return stringify([...documents, [], ...totals], { header: true, columns: VAT_REGISTER_HEADINGS, record_delimiter: 'windows', bom: true })
}

/** Text a spreadsheet shows as text: a leading ' before = + - @ (or a tab or carriage return), as escape_formulas does. */
export function inertText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

const RAND_FORMAT = '#,##0.00;-#,##0.00'

/** The VAT register as an Excel workbook: the documents with amounts as numbers in rands, and the totals below. */
export async function vatRegisterXlsx(register: VatRegister): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet(`VAT ${register.from} to ${register.to}`.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = VAT_REGISTER_HEADINGS.map((header, index) => ({ header, width: [14, 12, 12, 13, 32, 20, 14, 12, 14][index] }))
  sheet.getRow(1).font = { bold: true }
  for (const row of vatRegisterRows(register)) sheet.addRow(row.map((cell) => (typeof cell === 'number' ? cell / 100 : cell)))
  sheet.addRow([])
  for (const [label, sums] of vatRegisterTotalRows(register)) {
    sheet.addRow([label, '', '', '', '', '', sums.exclVatCents / 100, sums.vatCents / 100, sums.inclVatCents / 100]).font = { bold: true }
  }
  for (const column of [7, 8, 9]) sheet.getColumn(column).numFmt = RAND_FORMAT
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const EVENT_FINANCE_COLUMNS: ReadonlyArray<{ key: (typeof EVENT_AMOUNTS)[number] | (typeof EVENT_COUNTS)[number]; header: string }> = [
  { key: 'registrations', header: 'Registrations' },
  { key: 'delegatesAttending', header: 'Delegates attending' },
  { key: 'invoicedCents', header: 'Invoiced (R)' },
  { key: 'creditedCents', header: 'Credited (R)' },
  { key: 'netCents', header: 'Net of credit notes (R)' },
  { key: 'netExclVatCents', header: 'Excl. VAT (R)' },
  { key: 'netVatCents', header: 'VAT (R)' },
  { key: 'receivedCents', header: 'Received (R)' },
  { key: 'refundedCents', header: 'Refunded (R)' },
  { key: 'outstandingCents', header: 'Outstanding (R)' },
  { key: 'sponsorshipExclVatCents', header: 'Sponsorship excl. VAT (R)' },
  { key: 'sponsorshipCents', header: 'Sponsorship incl. VAT (R)' },
]

/** The per-event report as an Excel workbook: an event a row, amounts as numbers in rands, the totals last. */
export async function eventFinanceXlsx(report: EventFinanceReport): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Events', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = [
    { header: 'Event', width: 40 },
    { header: 'Starts', width: 12 },
    ...EVENT_FINANCE_COLUMNS.map((column) => ({ header: column.header, width: 16 })),
    ...AGE_BANDS.map((band) => ({ header: `Outstanding ${AGE_BAND_LABELS[band].toLowerCase()} (R)`, width: 16 })),
  ]
  sheet.getRow(1).font = { bold: true }
  const cell = (key: (typeof EVENT_FINANCE_COLUMNS)[number]['key'], value: number) => (key.endsWith('Cents') ? value / 100 : value)
  for (const event of report.events) {
    sheet.addRow([
      event.eventTitle,
      dayOf(event.eventStart),
      ...EVENT_FINANCE_COLUMNS.map((column) => cell(column.key, event[column.key])),
      ...AGE_BANDS.map((band) => event.ageing[band] / 100),
    ])
  }
  sheet.addRow([
    'All events',
    '',
    ...EVENT_FINANCE_COLUMNS.map((column) => cell(column.key, report.totals[column.key])),
    ...AGE_BANDS.map((band) => report.totals.ageing[band] / 100),
  ]).font = { bold: true }
  EVENT_FINANCE_COLUMNS.forEach((column, index) => {
    if (column.key.endsWith('Cents')) sheet.getColumn(index + 3).numFmt = RAND_FORMAT
  })
  AGE_BANDS.forEach((_band, index) => {
    sheet.getColumn(EVENT_FINANCE_COLUMNS.length + index + 3).numFmt = RAND_FORMAT
  })
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
