import {
  attendanceQuote,
  discountAppliesTo,
  discountWording,
  formatRand,
  isOptionKey,
  type Attendance,
  type AttendancePart,
  type AttendanceQuote,
  type Discount,
  type OptionKey,
} from '@events/pricing'
import type { Kysely, Transaction } from 'kysely'
import type { RegistrationEvent } from '../catalog.ts'
import { johannesburgDay } from '../cancellation/fee-rules.ts'
import type { Database } from '../db/database.ts'
import type { DiscountCodeRow } from '../db/tables/discount-codes.ts'
import { businessClock, type BackOfficeContext } from '../backoffice/context.ts'
import { ValidationError } from '../errors.ts'
import type { FieldIssueCode } from '../submissions/fields.ts'
import { isRecord } from '../validation/fields.ts'
import { normaliseDiscountCode } from '../submissions/choices.ts'

/** The field a registration or quotation names its discount code in, and the `?code=` of an event link. */
export const DISCOUNT_CODE_FIELD = 'discountCode'

/** The longest code accepted. */
export const MAX_DISCOUNT_CODE_LENGTH = 40

type Queries = Kysely<Database> | Transaction<Database>

export { normaliseDiscountCode }

/** The discount code a submission names, normalised; '' when none. */
export function discountCodeOf(input: unknown): string {
  return isRecord(input) ? normaliseDiscountCode(input[DISCOUNT_CODE_FIELD]) : ''
}

/** What a stored code takes off. */
function discountOf(row: Pick<DiscountCodeRow, 'kind' | 'percent' | 'amount_cents'>): Discount {
  if (row.kind === 'percent') return { kind: 'percent', percent: Number(row.percent) }
  if (row.kind === 'amount') return { kind: 'amount', amountCents: Number(row.amount_cents) }
  return { kind: 'complimentary' }
}

/** The options a stored code is limited to; empty for every per-delegate option. */
function optionKeysOf(row: Pick<DiscountCodeRow, 'option_keys'>): OptionKey[] {
  return row.option_keys.split(',').filter(isOptionKey)
}

/** The discount line's wording on the invoice: "Platinum sponsor discount 50% (code PLAT7Q2K)". */
export function discountDescription(row: Pick<DiscountCodeRow, 'kind' | 'percent' | 'amount_cents' | 'source_label' | 'code'>): string {
  const discount = discountOf(row)
  const what = discount.kind === 'complimentary' ? row.source_label : `${row.source_label} ${discountWording(discount, formatRand)}`
  return `${what} (code ${row.code})`
}

/**
 * A booking's price with the code it used (pricing does it all): each kind of attendance at its option's price, the
 * discount per delegate on their own price where the code's scope covers their option, VAT on what remains.
 */
export function priceWithDiscount(parts: Partial<Record<Attendance, AttendancePart>>, vatRate: number, code: DiscountCodeRow | undefined): AttendanceQuote {
  const terms = code && discountTermsOf(code)
  return attendanceQuote(parts, vatRate, terms?.discount, terms?.scope)
}

/** What a code gives, as the Register tab prices it before submitting: the discount, its scope and its wording. */
export interface DiscountTerms {
  code: string
  discount: Discount
  scope: { optionKeys: OptionKey[]; includesTables: boolean }
  description: string
  complimentary: boolean
}

/** A stored code's terms. */
export function discountTermsOf(
  row: Pick<DiscountCodeRow, 'code' | 'kind' | 'percent' | 'amount_cents' | 'option_keys' | 'includes_tables' | 'source_label'>,
): DiscountTerms {
  return {
    code: row.code,
    discount: discountOf(row),
    scope: { optionKeys: optionKeysOf(row), includesTables: row.includes_tables === 1 },
    description: discountDescription(row),
    complimentary: row.kind === 'complimentary',
  }
}

/** Why a discount code was refused, on the field discountCode. */
export type DiscountCodeRefusal = Extract<FieldIssueCode, `discount-code-${string}`>

function refuse(code: DiscountCodeRefusal): never {
  throw new ValidationError(code, [{ path: DISCOUNT_CODE_FIELD, code }])
}

/** The registrations using each code that are not cancelled: its uses. */
export async function discountCodeUses(queries: Queries, codeIds: readonly string[]): Promise<Map<string, number>> {
  const uses = new Map<string, number>(codeIds.map((id) => [id, 0]))
  if (codeIds.length === 0) return uses
  const rows = await queries
    .selectFrom('registration_discounts')
    .innerJoin('registrations', 'registrations.id', 'registration_discounts.registration_id')
    .select('registration_discounts.discount_code_id')
    .select((eb) => eb.fn.countAll<number | string>().as('uses'))
    .where('registration_discounts.discount_code_id', 'in', [...codeIds])
    .where('registrations.cancelled_at', 'is', null)
    .groupBy('registration_discounts.discount_code_id')
    .execute()
  for (const row of rows) uses.set(row.discount_code_id, Number(row.uses))
  return uses
}

/** What a registration or quotation asks of a code: the event, the option, the delegates, the business date. */
export interface DiscountRequest {
  code: string
  event: Pick<RegistrationEvent, 'id'>
  /** The options the booking's delegates are priced at (venue and online ones when it mixes them). */
  optionKeys: readonly OptionKey[]
  delegateCount: number
  now: Date
}

/**
 * The code a registration names, if it may use it: refused ('discount-code-…' on the field discountCode) when no such
 * code exists or it was voided, it is for another event, the date is outside its days, it does not apply to the option,
 * a complimentary seat is asked for more than one delegate, or its uses are spent. Reads only.
 */
export async function checkDiscountCode(queries: Queries, request: DiscountRequest): Promise<DiscountCodeRow> {
  const row = await findDiscountCode(queries, request)
  const scope = { optionKeys: optionKeysOf(row), includesTables: row.includes_tables === 1 }
  // A code limited to some options takes off what it can from the delegates on them, so it is refused only when it
  // applies to none of the booking's.
  if (!request.optionKeys.some((key) => discountAppliesTo(scope, key))) refuse('discount-code-option-excluded')
  // A complimentary code's uses are the sponsor's seats: one delegate each.
  if (row.kind === 'complimentary' && request.delegateCount > 1) refuse('discount-code-one-delegate')
  return row
}

/**
 * The code named for an event at a date, whatever the option: refused when no such code exists or it was voided, it
 * is for another event, the date is outside its days, or its uses are spent. What a link's `?code=` and the Register
 * tab's "Apply" check before the option and delegates are known.
 */
export async function findDiscountCode(queries: Queries, request: Omit<DiscountRequest, 'optionKeys' | 'delegateCount'>): Promise<DiscountCodeRow> {
  const row = request.code === '' ? undefined : await queries.selectFrom('discount_codes').selectAll().where('code', '=', request.code).executeTakeFirst()
  if (!row || row.voided_at !== null) refuse('discount-code-unknown')
  if (row.event_id !== null && row.event_id !== request.event.id) refuse('discount-code-other-event')
  const today = johannesburgDay(request.now)
  if (row.valid_from !== null && today < row.valid_from) refuse('discount-code-not-yet-valid')
  if (row.valid_until !== null && today > row.valid_until) refuse('discount-code-expired')
  if (row.max_uses !== null && (await discountCodeUses(queries, [row.id])).get(row.id)! >= row.max_uses) refuse('discount-code-spent')
  return row
}

/**
 * Takes one use of a code inside a registration's transaction, or refuses the whole registration: the code's row is
 * written first (claimed_at), which on PostgreSQL makes every other registration using it wait here until this one
 * ends, so the uses counted next include every registration committed before, whichever instance made it (SQLite's
 * write transactions are one at a time already). The code is read again under that lock, so a code voided or changed
 * meanwhile is refused too.
 */
export async function claimDiscountUse(transaction: Transaction<Database>, request: DiscountRequest, now: Date): Promise<DiscountCodeRow> {
  await transaction.updateTable('discount_codes').set({ claimed_at: now.toISOString() }).where('code', '=', request.code).execute()
  return checkDiscountCode(transaction, request)
}

/**
 * What a code gives at an event today, for the Register tab to show the new total before submitting (an event link's
 * `?code=` or the form's Apply): refused as findDiscountCode refuses; the option's scope is checked by the price.
 */
export async function previewDiscountCode(context: BackOfficeContext, eventSlug: string, code: unknown): Promise<DiscountTerms> {
  const event = await context.catalog.getEvent(eventSlug)
  if (!event) throw new ValidationError('unknown-event', [{ path: 'event', code: 'unknown-event' }])
  return discountTermsOf(await findDiscountCode(context.db.kysely, { code: normaliseDiscountCode(code), event, now: businessClock(context) }))
}

/** The code a registration used, as its pages show it: the invoice line's wording, what it took off, and whether it is a sponsor's complimentary seat. */
export interface DiscountUsed {
  description: string
  discountCents: number
  complimentary: boolean
}

/** The discount a registration's code gave, or undefined when it used none. */
export async function discountUsedBy(queries: Queries, registrationId: string): Promise<DiscountUsed | undefined> {
  const row = await queries
    .selectFrom('registration_discounts')
    .select(['description', 'discount_cents', 'complimentary'])
    .where('registration_id', '=', registrationId)
    .executeTakeFirst()
  return row && { description: row.description, discountCents: row.discount_cents, complimentary: row.complimentary === 1 }
}
