export { OPTION_KEYS, capMessage, checkDelegateCap, delegateCap, isOptionKey, isTableOption, type CapCheck, type OptionKey } from './options.ts'
export { formatAmount, formatRand, parseRandAmount, randsToCents } from './money.ts'
export { DEFAULT_VAT_RATE, cancellationCredit, quote, vatOn, type CancellationCredit, type ChargedAmounts, type PricedOption, type Quote } from './quote.ts'
export {
  TIME_ZONE,
  isRegistrationOpen,
  nextAvailabilityChange,
  optionAvailability,
  optionOfferedUntil,
  type Availability,
  type EventSchedule,
  type EventWindows,
  type OptionWindow,
} from './availability.ts'
export { headline, type Headline, type ListedOption } from './headline.ts'
export {
  applyDiscount,
  assertDiscount,
  discountAppliesTo,
  discountOnLine,
  discountWording,
  discountedQuote,
  type Discount,
  type DiscountScope,
  type DiscountedQuote,
} from './discount.ts'
export {
  ATTENDANCES,
  attendanceOfOption,
  attendanceOptionKey,
  attendanceQuote,
  isAttendance,
  type Attendance,
  type AttendanceLine,
  type AttendancePart,
  type AttendanceQuote,
} from './attendance.ts'
