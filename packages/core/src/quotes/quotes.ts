import { isRegistrationOpen, isTableOption, OPTION_KEYS, optionOfferedUntil, type Attendance } from '@events/pricing'
import * as z from 'zod/mini'
import type { RegistrationEvent, RegistrationPriceOption } from '../catalog.ts'
import { FULL_FEE_CALENDAR_DAYS, HALF_FEE_WORKING_DAYS } from '../cancellation/fee-rules.ts'
import type { Kysely } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import { ValidationError } from '../errors.ts'
import { newId } from '../ids.ts'
import { formatSeriesNumber, nextNumberInSeries } from '../invoice/invoice-number.ts'
import { bookingLines, nonEmptyLines, supplierOf } from '../invoice/issue-invoice.ts'
import { businessClock, type BackOfficeContext } from '../backoffice/context.ts'
import { formatDate } from '../mail/dates.ts'
import { priceRegistration } from '../registration/pricing.ts'
import { checkDiscountCode, discountCodeOf, discountDescription } from '../discounts/codes.ts'
import { MAX_DELEGATES } from '../submissions/choices.ts'
import { optionalLine, optionalText, ownFields, requiredChoice } from '../submissions/fields.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { attendanceOptionFor, checkOptionAndDelegates, FIELD_LIMITS, optionalVatNumber, readEventSlug } from '../submissions/registration.ts'
import { isRecord, singleLine } from '../validation/fields.ts'
import { renderQuotePdf, type QuoteData } from './quote-pdf.ts'

const QUOTE_SERIES = 'quote'

/** A quotation's number as printed: "Q-000042". */
function formatQuoteNumber(number: number): string {
  return formatSeriesNumber('Q', number)
}

/** The file name of a quotation download. */
function quoteFilename(quoteNumber: string): string {
  return `quote-${quoteNumber}.pdf`
}

/** A number of delegates as a form sends it: a whole number from 1 to MAX_DELEGATES. */
const delegateCount = z.pipe(
  z.transform((value: unknown) => (typeof value === 'number' ? String(value) : singleLine(value))),
  z.pipe(
    z.string().check(z.minLength(1, 'required')),
    z.pipe(
      z.transform((text: string) => (/^\d{1,3}$/.test(text) ? Number(text) : Number.NaN)),
      z
        .number('invalid-delegate-count')
        .check(z.int('invalid-delegate-count'), z.minimum(1, 'invalid-delegate-count'), z.maximum(MAX_DELEGATES, 'invalid-delegate-count')),
    ),
  ),
)

/** Online delegates besides those of a venue option: none when not given, else a whole number up to MAX_DELEGATES. */
const onlineDelegateCount = z.pipe(
  z.transform((value: unknown) => (typeof value === 'number' ? String(value) : singleLine(value))),
  z.pipe(
    z.transform((text: string) => (text === '' ? 0 : /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN)),
    z
      .number('invalid-delegate-count')
      .check(z.int('invalid-delegate-count'), z.minimum(0, 'invalid-delegate-count'), z.maximum(MAX_DELEGATES, 'invalid-delegate-count')),
  ),
)

const quoteRequestFields = z.object({
  attendanceOption: requiredChoice(OPTION_KEYS),
  delegates: delegateCount,
  /** With a per-delegate venue option, how many more delegates attend online. */
  onlineDelegates: onlineDelegateCount,
  companyName: optionalLine(FIELD_LIMITS.companyName),
  address: optionalText(FIELD_LIMITS.address),
  vatNumber: optionalVatNumber,
})

/** A quotation request for an event at the business date `now`: the option offered and available, the delegates within its cap. */
function quoteRequestSchemaFor(event: RegistrationEvent, now: Date) {
  return z.pipe(
    ownFields,
    quoteRequestFields.check(
      z.superRefine((request, context) => {
        const count = typeof request.delegates === 'number' && Number.isInteger(request.delegates) ? request.delegates : undefined
        checkOptionAndDelegates(event, now, request.attendanceOption, count, request.delegates, (issue) => context.addIssue(issue))
        const online = request.onlineDelegates
        if (typeof online !== 'number' || online === 0 || request.attendanceOption === 'online') return
        const issue = { code: 'custom' as const, path: ['onlineDelegates'], input: online }
        if (isTableOption(request.attendanceOption)) context.addIssue({ ...issue, message: 'table-venue-only' })
        else if (!attendanceOptionFor(event, now, request.attendanceOption, 'online')) context.addIssue({ ...issue, message: 'attendance-unavailable' })
      }),
    ),
  )
}

/** What a quotation request answers: the quotation's number and its PDF. */
export interface IssuedQuote {
  number: string
  filename: string
  pdf: Buffer
  totalCents: number
}

/**
 * Makes a quotation for an event's option and number of delegates (company details optional), priced exactly as the
 * registration would be on the business date, valid until that price stops being offered, numbered in its own series.
 * It is stored so staff can find it by number; it holds no seat.
 */
export async function requestQuote(context: BackOfficeContext, input: unknown): Promise<IssuedQuote> {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  const slug = readEventSlug(input)
  const event = await context.catalog.getEvent(slug)
  if (!event) throw new ValidationError('unknown-event', [{ path: 'event', code: 'unknown-event' }])
  const today = businessClock(context)
  if (!isRegistrationOpen(event, today)) throw new ValidationError('registration-closed')
  const request = parseSubmission(quoteRequestSchemaFor(event, today), input)
  const option = event.priceOptions.find((candidate) => candidate.key === request.attendanceOption)
  if (!option) throw new ValidationError('invalid-request')
  const settings = await context.catalog.getSettings()
  // A discount code is checked as the registration would check it, but no use is taken: a quotation holds nothing.
  const discountCode = discountCodeOf(input)
  // The chosen option's delegates, and with a venue option those attending online besides at the online price.
  const onlineOption = option.key === 'online' ? option : request.onlineDelegates > 0 ? attendanceOptionFor(event, today, option.key, 'online') : undefined
  const options: Partial<Record<Attendance, RegistrationPriceOption>> =
    option.key === 'online' ? { online: option } : { venue: option, ...(onlineOption ? { online: onlineOption } : {}) }
  const delegates =
    option.key === 'online' ? { venue: 0, online: request.delegates + request.onlineDelegates } : { venue: request.delegates, online: request.onlineDelegates }
  const delegateCount = delegates.venue + delegates.online
  const code =
    discountCode === ''
      ? undefined
      : await checkDiscountCode(context.db.kysely, {
          code: discountCode,
          event,
          optionKeys: Object.values(options).map((priced) => priced.key),
          delegateCount,
          now: today,
        })
  const price = priceRegistration(options, delegates, settings.vatRate, code)
  const validUntil = optionOfferedUntil(option, event)
  const data: Omit<QuoteData, 'number'> = {
    issueDate: formatDate(today),
    // The last moment the price is offered, as its date: an early-bird price to the end of its day.
    validUntil: formatDate(new Date(validUntil.getTime() - 1)),
    eventTitle: event.title,
    eventUrl: event.url,
    supplier: supplierOf(settings),
    recipient: { name: request.companyName, addressLines: nonEmptyLines(request.address), vatNumber: request.vatNumber },
    lines: bookingLines(
      event,
      price,
      Object.fromEntries(Object.entries(options).map(([attendance, priced]) => [attendance, priced.label])),
      (_attendance, count) => (count === 1 ? '1 delegate' : `${count} delegates`),
      code && discountDescription(code),
    ),
    subtotalCents: price.subtotalCents,
    vatRate: price.vatRate,
    vatCents: price.vatCents,
    totalCents: price.totalCents,
    paymentTermsDays: settings.paymentTermsDays,
    cancellationTerms: { halfFeeWorkingDays: HALF_FEE_WORKING_DAYS, fullFeeCalendarDays: FULL_FEE_CALENDAR_DAYS },
    bankDetails: settings.bankDetails,
    issuedAt: today,
  }
  const id = newId()
  const number = await context.db.writeTransaction(async (transaction) => {
    // The number is taken last, right before the COMMIT, so the counter's lock is held as briefly as it can be.
    const serial = await nextNumberInSeries(transaction, QUOTE_SERIES)
    const quoteNumber = formatQuoteNumber(serial)
    const quoteData: QuoteData = {
      ...data,
      number: quoteNumber,
      eventUrl: registerWithQuotationUrl(event.url, quoteNumber, option.key, delegateCount, option.key === 'online' ? 0 : delegates.online),
    }
    await transaction
      .insertInto('quotes')
      .values({
        id,
        number: serial,
        event_slug: event.slug,
        event_title: event.title,
        company_name: request.companyName,
        total_cents: price.totalCents,
        valid_until: validUntil.toISOString(),
        issued_at: today.toISOString(),
        data_json: JSON.stringify(quoteData),
        pdf_base64: '',
      })
      .execute()
    return quoteData.number
  })
  const pdf = await renderStoredQuote(context.db, id)
  return { number, filename: quoteFilename(number), pdf: pdf!, totalCents: price.totalCents }
}

async function renderStoredQuote(db: CoreDatabase, quoteId: string): Promise<Buffer | undefined> {
  const quote = await db.kysely.selectFrom('quotes').select(['pdf_base64', 'data_json']).where('id', '=', quoteId).executeTakeFirst()
  if (!quote) return undefined
  if (quote.pdf_base64 !== '') return Buffer.from(quote.pdf_base64, 'base64')
  const data = JSON.parse(quote.data_json) as Omit<QuoteData, 'issuedAt'> & { issuedAt: string }
  const pdf = await renderQuotePdf({ ...data, issuedAt: new Date(data.issuedAt) })
  // The same data renders the same bytes, so a concurrent first render that stored first is just as good.
  await db.kysely
    .updateTable('quotes')
    .set({ pdf_base64: pdf.toString('base64') })
    .where('id', '=', quoteId)
    .where('pdf_base64', '=', '')
    .execute()
  return pdf
}

/** A quotation as staff find it by its number. */
export interface FoundQuote {
  number: string
  eventTitle: string
  companyName: string
  totalCents: number
  validUntil: string
  issuedAt: string
  /** The registrations made from it (it converted when there is one), oldest first. */
  registrations: Array<{ reference: string; companyName: string; status: string; createdAt: string }>
}

function quoteSerial(quoteNumber: string): number | undefined {
  const match = /^Q-?(\d{1,9})$/i.exec(quoteNumber.trim())
  return match ? Number(match[1]) : undefined
}

/** A quotation by its number as printed (Q-000001; "q-1" and "1" too); undefined when there is none. */
export async function findQuote(context: Pick<BackOfficeContext, 'db'>, quoteNumber: string): Promise<FoundQuote | undefined> {
  const serial = quoteSerial(/^\d+$/.test(quoteNumber.trim()) ? `Q-${quoteNumber.trim()}` : quoteNumber)
  if (serial === undefined) return undefined
  const row = await context.db.kysely.selectFrom('quotes').selectAll().where('number', '=', serial).executeTakeFirst()
  if (!row) return undefined
  const number = formatQuoteNumber(row.number)
  const registrations = await context.db.kysely
    .selectFrom('registrations')
    .select(['reference', 'company_name', 'status', 'created_at'])
    .where('quotation_number', '=', number)
    .orderBy('created_at')
    .execute()
  return {
    number,
    registrations: registrations.map((registration) => ({
      reference: registration.reference,
      companyName: registration.company_name,
      status: registration.status,
      createdAt: registration.created_at,
    })),
    eventTitle: row.event_title,
    companyName: row.company_name,
    totalCents: row.total_cents,
    validUntil: row.valid_until,
    issuedAt: row.issued_at,
  }
}

/** A quotation's PDF by its number, for staff. */
export async function quoteDownload(context: Pick<BackOfficeContext, 'db'>, quoteNumber: string): Promise<{ filename: string; pdf: Buffer } | undefined> {
  const serial = quoteSerial(quoteNumber)
  if (serial === undefined) return undefined
  const row = await context.db.kysely.selectFrom('quotes').select('id').where('number', '=', serial).executeTakeFirst()
  const pdf = row ? await renderStoredQuote(context.db, row.id) : undefined
  return pdf ? { filename: quoteFilename(formatQuoteNumber(serial)), pdf } : undefined
}

/** The field of a registration (form and API) naming the quotation it was made from. */
const QUOTATION_NUMBER_FIELD = 'quotationNumber'

/** A registration's quotation number as given, printed form (Q-000042; "q-42" and "42" too); '' when none or unreadable text. */
export function quotationNumberOf(input: unknown): string {
  const value = isRecord(input) ? input[QUOTATION_NUMBER_FIELD] : undefined
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : ''
  if (text === '') return ''
  const serial = quoteSerial(/^\d+$/.test(text) ? `Q-${text}` : text)
  return serial === undefined ? text.slice(0, 40) : formatQuoteNumber(serial)
}

/**
 * Checks the quotation a registration names: one that was issued, for the same event. Refuses, on the field, one that
 * is not (a number that does not read is no quotation either).
 */
export async function checkQuotation(queries: Kysely<Database>, quotationNumber: string, eventSlug: string): Promise<void> {
  const serial = quoteSerial(quotationNumber)
  const row = serial === undefined ? undefined : await queries.selectFrom('quotes').select('event_slug').where('number', '=', serial).executeTakeFirst()
  if (!row) throw new ValidationError('quotation-unknown', [{ path: QUOTATION_NUMBER_FIELD, code: 'quotation-unknown' }])
  if (row.event_slug !== eventSlug) throw new ValidationError('quotation-other-event', [{ path: QUOTATION_NUMBER_FIELD, code: 'quotation-other-event' }])
}

/** The query parameter of an event page's address naming the quotation to register with (the quote links to it). */
export const QUOTATION_LINK_PARAM = 'quotation'

/**
 * Where a quotation sends its reader to register: the event's Register tab with the quotation's number, option and
 * number of delegates (and of those online besides a venue option's), which the form starts with.
 */
function registerWithQuotationUrl(eventUrl: string, quoteNumber: string, optionKey: string, delegates: number, online: number): string {
  const url = new URL(eventUrl)
  url.searchParams.set('tab', 'register')
  url.searchParams.set(QUOTATION_LINK_PARAM, quoteNumber)
  url.searchParams.set('option', optionKey)
  url.searchParams.set('delegates', String(delegates))
  if (online > 0) url.searchParams.set('online', String(online))
  return url.toString()
}

/** What a quotation's link starts the registration form with. */
export interface QuotationPrefill {
  quotationNumber: string
  companyName: string
  address: string
  attendanceOption: string
  delegateCount: number
  /** How many of the delegates, the last listed, attend online (with a venue option); 0 for none. */
  onlineCount: number
}

/**
 * The registration form's start from a quotation's link (`registerWithQuotationUrl`): the quotation's number and the
 * company it names, as stored; the option and number of delegates as the link carries them (the registration's own
 * rules check them when it is made). Undefined for no quotation of this event.
 */
export async function quotationPrefill(
  context: Pick<BackOfficeContext, 'db'>,
  eventSlug: string,
  link: { number: string | null; option: string | null; delegates: string | null; online?: string | null },
): Promise<QuotationPrefill | undefined> {
  const serial = link.number === null ? undefined : quoteSerial(link.number)
  if (serial === undefined) return undefined
  const row = await context.db.kysely
    .selectFrom('quotes')
    .select(['number', 'event_slug', 'company_name', 'data_json'])
    .where('number', '=', serial)
    .executeTakeFirst()
  if (!row || row.event_slug !== eventSlug) return undefined
  const data = JSON.parse(row.data_json) as Pick<QuoteData, 'recipient'>
  const delegates = Number(link.delegates)
  const delegateCount = Number.isInteger(delegates) && delegates >= 1 && delegates <= MAX_DELEGATES ? delegates : 1
  const online = Number(link.online ?? 0)
  return {
    quotationNumber: formatQuoteNumber(row.number),
    companyName: row.company_name,
    address: data.recipient.addressLines.join('\n'),
    attendanceOption: (OPTION_KEYS as readonly string[]).includes(link.option ?? '') ? link.option! : '',
    delegateCount,
    onlineCount: Number.isInteger(online) && online >= 0 && online < delegateCount ? online : 0,
  }
}
