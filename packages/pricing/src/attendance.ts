import { applyDiscount, discountAppliesTo, discountOnLine, type Discount, type DiscountScope, type DiscountedQuote } from './discount.ts'
import { assertDelegateCount, isTableOption, type OptionKey } from './options.ts'
import { quote, vatOn, type PricedOption } from './quote.ts'

/** How one delegate attends: in the room or online. */
export type Attendance = 'venue' | 'online'

/** Every attendance, in the order the form lists them. */
export const ATTENDANCES: readonly Attendance[] = Object.freeze(['venue', 'online'])

/** Whether a value (for example from a request body) is an attendance. */
export function isAttendance(value: unknown): value is Attendance {
  return typeof value === 'string' && (ATTENDANCES as readonly string[]).includes(value)
}

/** The delegates of one attendance and the option that prices them. */
export interface AttendancePart {
  option: PricedOption
  delegates: number
}

/** One kind of attendance of a booking, priced: its own line on the invoice. */
export interface AttendanceLine {
  attendance: Attendance
  option: PricedOption
  delegates: number
  /** Its price before the discount, excl. VAT (the table's flat price, or the delegates times the option's price). */
  fullSubtotalCents: number
  discountCents: number
  /** What one of its delegates costs after the discount; a table's flat price after it. */
  unitAmountCents: number
}

/** A booking of venue and online delegates: the discounted total (VAT once on it) and its line per attendance. */
export interface AttendanceQuote extends DiscountedQuote {
  lines: AttendanceLine[]
}

/**
 * Prices a booking whose delegates attend at the venue or online: each kind at its own option's price (a table flat,
 * and only at the venue), the discount taken off each line its scope covers, worked out per delegate on that
 * delegate's price, then VAT once on the total, rounded half-up to the cent. A kind without delegates has no line.
 */
export function attendanceQuote(
  parts: Partial<Record<Attendance, AttendancePart>>,
  vatRate: number,
  discount?: Discount,
  scope: DiscountScope = {},
): AttendanceQuote {
  const online = parts.online
  if (online && isTableOption(online.option.key)) throw new RangeError(`A table is only at the venue, got ${online.option.key} online`)
  const lines: AttendanceLine[] = []
  for (const attendance of ATTENDANCES) {
    const part = parts[attendance]
    if (!part) continue
    assertDelegateCount(part.delegates)
    if (part.delegates === 0) continue
    const fullSubtotalCents = quote(part.option, part.delegates, vatRate).subtotalCents
    const discountCents = discount !== undefined && discountAppliesTo(scope, part.option.key) ? discountOnLine(part.option, part.delegates, discount) : 0
    const quantity = isTableOption(part.option.key) ? 1 : part.delegates
    // Per delegate the discount is the same whole cents for each (discountOnLine rounds it per delegate), so this divides exactly.
    lines.push({
      attendance,
      option: part.option,
      delegates: part.delegates,
      fullSubtotalCents,
      discountCents,
      unitAmountCents: part.option.amountCents - discountCents / quantity,
    })
  }
  const fullSubtotalCents = lines.reduce((sum, line) => sum + line.fullSubtotalCents, 0)
  const full = { subtotalCents: fullSubtotalCents, vatCents: vatOn(fullSubtotalCents, vatRate), totalCents: 0, vatRate }
  full.totalCents = full.subtotalCents + full.vatCents
  const discountCents = lines.reduce((sum, line) => sum + line.discountCents, 0)
  return { ...applyDiscount(full, discountCents), lines }
}

/** The kind of attendance an option is: online, or the venue (venue, early-bird and the tables). */
export function attendanceOfOption(key: OptionKey): Attendance {
  return key === 'online' ? 'online' : 'venue'
}

/** The per-delegate venue options, in the order a venue delegate takes the first available when the chosen option does not say. */
const VENUE_PRICE_ORDER: readonly OptionKey[] = ['early-bird', 'venue']

/**
 * The option a delegate attending this way is priced at: the chosen one for its own kind; for the other, online, or
 * the per-delegate venue price in force (early-bird while it lasts); undefined when none of them is available. A table
 * seats only venue delegates, so it prices no online one.
 */
export function attendanceOptionKey(chosen: OptionKey | '', attendance: Attendance, available: (key: OptionKey) => boolean): OptionKey | undefined {
  if (chosen !== '' && isTableOption(chosen) && attendance === 'online') return undefined
  const keys = chosen !== '' && attendanceOfOption(chosen) === attendance ? [chosen] : attendance === 'online' ? (['online'] as const) : VENUE_PRICE_ORDER
  return keys.find(available)
}
