import type { DiscountTerms, RegistrationFormValues } from '@events/core'
import { MAX_DELEGATES } from '@events/core/choices'
import {
  ATTENDANCES,
  attendanceOfOption,
  attendanceOptionKey,
  attendanceQuote,
  capMessage,
  checkDelegateCap,
  delegateCap,
  isAttendance,
  isOptionKey,
  isTableOption,
  randsToCents,
  type Attendance,
  type AttendancePart,
  type AttendanceQuote,
  type OptionKey,
} from '@events/pricing'

// The registration form's state and its transitions, shared by the browser (instant updates) and the page's
// action (the same updates without JavaScript), so both behave alike. Prices and caps come from packages/pricing.

type DelegateDraft = RegistrationDraft['delegates'][number]

/** What the visitor has filled in so far: the registration schema's fields as typed, and the form's submission token. */
export type RegistrationDraft = RegistrationFormValues & {
  /**
   * The form's submission token, the idempotency key of its submit: made by the visitor's browser, or by the server
   * on the form's first round trip without JavaScript; empty on a form as the (shared, cached) page first serves it.
   */
  token: string
  /** The discount code typed in "Have a code?", or brought by an event link's `?code=`; empty for none. */
  discountCode: string
  /** The quotation the registration is made from (Q-000042), typed in or brought by the quote's `?quote=` link; empty for none. */
  quotationNumber: string
}

export type DraftIntent =
  | { type: 'add-delegate' }
  | { type: 'remove-delegate'; index: number }
  | { type: 'update' }
  /** Check the discount code and show the new total (the form's Apply button). */
  | { type: 'apply-code' }
  | { type: 'submit' }
  /** Submit, then go straight to the card checkout (the form's Pay button). */
  | { type: 'pay' }

/** One attendance option as the form offers it: price in rands excl. VAT, and whether it can be chosen now. */
export interface OfferedOption {
  key: string
  label: string
  amount: number
  available: boolean
  /** Not available because its seats are taken, rather than because its time (an early-bird's) has passed. */
  soldOut?: boolean
}

function blankDelegate(): DelegateDraft {
  return { name: '', position: '', email: '', attendance: '' }
}

/** The form as it starts: the event code prefilled, one blank delegate, no option, no payment method. */
export function blankDraft(code: string): RegistrationDraft {
  return {
    code,
    companyName: '',
    address: '',
    email: '',
    tel: '',
    vatRegistered: '',
    vatNumber: '',
    purchaseOrderNumber: '',
    attendanceOption: '',
    paymentMethod: '',
    legalAgreement: false,
    delegates: [blankDelegate()],
    token: '',
    discountCode: '',
    quotationNumber: '',
  }
}

/** Reads the intent a form button carried: add-delegate, remove-delegate:<n>, update or submit (the default). */
export function parseIntent(value: unknown): DraftIntent {
  const text = typeof value === 'string' ? value : ''
  if (text === 'add-delegate') return { type: 'add-delegate' }
  if (text === 'update') return { type: 'update' }
  if (text === 'apply-code') return { type: 'apply-code' }
  if (text === 'pay') return { type: 'pay' }
  const removal = /^remove-delegate:(\d{1,3})$/.exec(text)
  if (removal) return { type: 'remove-delegate', index: Number(removal[1]) }
  return { type: 'submit' }
}

function text(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

// Every text field of the form by its name; the blank draft spells them once.
const TEXT_FIELDS = Object.keys(blankDraft('')).filter((name) => name !== 'delegates' && name !== 'legalAgreement') as Array<
  Exclude<keyof RegistrationDraft, 'delegates' | 'legalAgreement'>
>
const DELEGATE_FIELDS = Object.keys(blankDelegate()) as Array<Exclude<keyof DelegateDraft, 'professionalRegistrationNumber'>>
// Asked only where the event is CPD-accredited: a row carries it when the form had the field.
const REGISTRATION_NUMBER = 'professionalRegistrationNumber'

/** Reads the registration fields of a posted form; delegate rows are `delegates.<n>.name|position|email|professionalRegistrationNumber`. */
export function draftFromForm(form: FormData): RegistrationDraft {
  const rows = new Set<number>()
  for (const name of form.keys()) {
    const match = /^delegates\.(\d{1,3})\.(\w+)$/.exec(name)
    if (match && (DELEGATE_FIELDS as string[]).includes(match[2] ?? '')) rows.add(Number(match[1]))
  }
  // Every row posted goes on (at most 1,000, by the pattern): one beyond the most a registration takes is refused by
  // the core with the form's message (too-many-delegates), not dropped unseen.
  const delegates = [...rows]
    .sort((a, b) => a - b)
    .map((row) => {
      const delegate = Object.fromEntries(DELEGATE_FIELDS.map((name) => [name, text(form, `delegates.${row}.${name}`)])) as DelegateDraft
      const numberField = `delegates.${row}.${REGISTRATION_NUMBER}`
      return form.has(numberField) ? { ...delegate, professionalRegistrationNumber: text(form, numberField) } : delegate
    })
  const texts = Object.fromEntries(TEXT_FIELDS.map((name) => [name, text(form, name)])) as Pick<RegistrationDraft, (typeof TEXT_FIELDS)[number]>
  return { ...texts, legalAgreement: form.get('legalAgreement') !== null, delegates }
}

function capOf(option: string): number | undefined {
  return isOptionKey(option) ? delegateCap(option) : undefined
}

/** What the form's action answers when it does not redirect to the status page (and what the browser makes up when no answer came). */
export interface RegistrationOutcome {
  draft?: RegistrationDraft
  notice?: string
  error?: { code: string; message: string; fields: Record<string, string> }
  /** The submission was taken as a robot's (honeypot): it is acknowledged and nothing is stored. */
  received?: boolean
  /** What the draft's discount code gives, once checked; absent without a code or when it was refused. */
  discount?: DiscountTerms
}

/** An event link's `?code=`, as the server checked it: what the code gives, or why it was refused (worded). */
export interface DiscountLinkShown {
  code: string
  discount?: DiscountTerms | undefined
  refusal?: string | undefined
}

/** The result of a change: the new draft and, when the change was limited, the message that says so. */
export interface DraftChange {
  draft: RegistrationDraft
  notice?: string
}

/** Adds a blank delegate row unless the chosen option's cap is reached, in which case the cap message says so. */
export function addDelegate(draft: RegistrationDraft): DraftChange {
  const option = isOptionKey(draft.attendanceOption) ? draft.attendanceOption : undefined
  const check = checkDelegateCap(option, draft.delegates.length + 1)
  if (!check.ok) return { draft, notice: check.message }
  if (draft.delegates.length >= MAX_DELEGATES) return { draft, notice: capMessage(MAX_DELEGATES) }
  return { draft: { ...draft, delegates: [...draft.delegates, blankDelegate()] } }
}

/** Removes one delegate row; any row may go, the last one too. */
export function removeDelegate(draft: RegistrationDraft, index: number): DraftChange {
  return { draft: { ...draft, delegates: draft.delegates.filter((_, row) => row !== index) } }
}

/**
 * Applies the chosen option: a table seats everyone at the venue (each delegate's own choice goes), and one with more
 * delegates listed than it admits cuts the list to its cap and says so.
 */
export function fitDelegatesToOption(draft: RegistrationDraft): DraftChange {
  const cap = capOf(draft.attendanceOption)
  if (cap === undefined) return { draft }
  const seated = { ...draft, delegates: draft.delegates.map((delegate) => ({ ...delegate, attendance: '' })) }
  if (draft.delegates.length <= cap) return { draft: seated }
  return {
    draft: { ...seated, delegates: seated.delegates.slice(0, cap) },
    notice: `${capMessage(cap)} The list was cut to the first ${cap}.`,
  }
}

/** Applies a form button's intent to the draft (submit leaves it as it is). */
export function applyIntent(draft: RegistrationDraft, intent: DraftIntent): DraftChange {
  switch (intent.type) {
    case 'add-delegate': {
      const fitted = fitDelegatesToOption(draft)
      return fitted.notice ? fitted : addDelegate(draft)
    }
    case 'remove-delegate':
      return removeDelegate(draft, intent.index)
    case 'update':
    case 'apply-code':
      return fitDelegatesToOption(draft)
    case 'submit':
    case 'pay':
      return { draft }
  }
}

/** How a draft's delegate attends: as they chose, else as the chosen option. */
export function delegateAttendance(delegate: { attendance: string }, option: OptionKey): Attendance {
  return isAttendance(delegate.attendance) ? delegate.attendance : attendanceOfOption(option)
}

/**
 * Whether the form asks each delegate how they attend: the chosen option is per delegate, and the event offers both
 * a per-delegate venue price and online now.
 */
export function asksAttendance(draft: RegistrationDraft, options: readonly OfferedOption[]): boolean {
  const chosen = draft.attendanceOption
  if (!isOptionKey(chosen) || isTableOption(chosen)) return false
  const available = (key: OptionKey) => options.some((option) => option.key === key && option.available)
  return ATTENDANCES.every((attendance) => attendanceOptionKey(chosen, attendance, available) !== undefined)
}

/**
 * What the draft costs with the chosen option (total 0 without one, or when the option cannot be chosen): each
 * delegate at the price of their own attendance, less the checked discount code's discount where it applies.
 */
export function priceDraft(draft: RegistrationDraft, options: readonly OfferedOption[], vatRate: number, discount?: DiscountTerms): AttendanceQuote {
  const chosen = options.find((option) => option.key === draft.attendanceOption && option.available)
  const parts: Partial<Record<Attendance, AttendancePart>> = {}
  if (chosen && isOptionKey(chosen.key)) {
    const key: OptionKey = chosen.key
    const offered = (candidate: OptionKey) => options.find((option) => option.key === candidate && option.available)
    for (const attendance of ATTENDANCES) {
      const delegates = draft.delegates.filter((delegate) => delegateAttendance(delegate, key) === attendance).length
      const pricedKey = attendanceOptionKey(key, attendance, (candidate) => offered(candidate) !== undefined)
      const priced = pricedKey === undefined ? undefined : offered(pricedKey)
      // A way of attending the event does not offer (or online at a table) is refused when submitted; until then it adds nothing.
      if (priced && delegates > 0) parts[attendance] = { option: { key: pricedKey!, amountCents: randsToCents(priced.amount) }, delegates }
    }
  }
  return attendanceQuote(parts, vatRate, discount?.discount, discount?.scope)
}

/** The draft as the registration API reads it: its fields and the event, without the form's token. */
export function registrationInput(eventSlug: string, draft: RegistrationDraft) {
  const { token: _token, ...fields } = draft
  // The form always answers the VAT question: left unanswered, a VAT number typed in is checked as a VAT vendor's,
  // and none means the company is not one (only the API's clients send a VAT number unchecked).
  const vatRegistered = fields.vatRegistered || (fields.vatNumber.trim() === '' ? 'no' : 'yes')
  return { event: eventSlug, ...fields, vatRegistered }
}
