import {
  ATTENDANCES,
  attendanceOfOption,
  attendanceOptionKey,
  checkDelegateCap,
  isOptionKey,
  isRegistrationOpen,
  isTableOption,
  OPTION_KEYS,
  optionAvailability,
  type Attendance,
  type OptionKey,
} from '@events/pricing'
import * as z from 'zod/mini'
import type { RegistrationEvent, RegistrationPriceOption } from '../catalog.ts'
import { ValidationError } from '../errors.ts'
import { isRecord, MAX_EMAIL_LENGTH, singleLine } from '../validation/fields.ts'
import { MAX_DELEGATES, PAYMENT_METHODS, paymentMethodKeyOf } from './choices.ts'
import { optionalChoice, optionalLine, ownFields, requiredChoice, requiredEmail, requiredLine, requiredPhone, requiredText, ticked } from './fields.ts'
import { parseSubmission } from './parse.ts'

export const FIELD_LIMITS = {
  event: 100,
  code: 40,
  companyName: 200,
  address: 1000,
  email: MAX_EMAIL_LENGTH,
  tel: 40,
  vatNumber: 40,
  purchaseOrderNumber: 60,
  delegateName: 200,
  delegatePosition: 200,
  professionalRegistrationNumber: 40,
} as const

/** A delegate's fields, shared by the registration form's rows and the back office's delegate change. */
export const delegateFields = z.object({
  name: requiredLine(FIELD_LIMITS.delegateName),
  position: requiredLine(FIELD_LIMITS.delegatePosition),
  email: requiredEmail,
})

/**
 * One delegate: the registration form's rows. For an event a CPD body accredits, a delegate may add their professional
 * registration number (printed on their certificate); an event without accreditation stores none.
 */
const delegateObject = z.object({ ...delegateFields.shape, professionalRegistrationNumber: optionalLine(FIELD_LIMITS.professionalRegistrationNumber) })
export const delegateSchema = z.pipe(ownFields, delegateObject)
/** A delegate as registered: the professional registration number only where the event is CPD-accredited and it was given. */
export type DelegateSubmission = z.output<typeof delegateFields> & { professionalRegistrationNumber?: string }

/** A South African VAT number as SARS issues them: 10 digits, the first a 4 (spaces between the digits allowed). */
function isSouthAfricanVatNumber(value: string): boolean {
  return /^4\d{9}$/.test(value.replaceAll(' ', ''))
}

/** A VAT number as it is stored and printed: its digits without the spaces typed between them. */
function vatNumberDigits(value: string): string {
  return isSouthAfricanVatNumber(value) ? value.replaceAll(' ', '') : value
}

/** An optional VAT number, checked when given: a company that is not a VAT vendor leaves it empty. */
export const optionalVatNumber = z.pipe(
  optionalLine(FIELD_LIMITS.vatNumber),
  z.pipe(z.string().check(z.refine((value) => value === '' || isSouthAfricanVatNumber(value), 'invalid-vat-number')), z.transform(vatNumberDigits)),
)

/** The registrant's company details' fields, shared by the registration form and the back office's correction. */
export const companyDetailsFields = z.object({
  companyName: requiredLine(FIELD_LIMITS.companyName),
  address: requiredText(FIELD_LIMITS.address),
  email: requiredEmail,
  tel: requiredPhone(FIELD_LIMITS.tel),
  vatNumber: optionalVatNumber,
  /** The company's own reference for the registration (its purchase order), printed on its tax documents as "Your reference". */
  purchaseOrderNumber: optionalLine(FIELD_LIMITS.purchaseOrderNumber),
})

/** The registrant's company details: the registration form's and the back office's correction. */
export const companyDetailsSchema = z.pipe(ownFields, companyDetailsFields)
export type CompanyDetails = z.output<typeof companyDetailsSchema>

/** A registration's delegate: their fields and how they attend, or '' to attend as the chosen option says. */
const registrationDelegateSchema = z.pipe(ownFields, z.object({ ...delegateObject.shape, attendance: optionalChoice(ATTENDANCES) }))

// A list that is not a list has no delegates; a list longer than any registration needs is refused before its rows are read.
const delegateList = z.pipe(
  z.transform((value: unknown): unknown[] => (Array.isArray(value) ? value : [])),
  z.pipe(
    z.array(z.unknown()).check(z.maxLength(MAX_DELEGATES, 'too-many-delegates')),
    z.array(registrationDelegateSchema).check(z.minLength(1, 'no-delegates')),
  ),
)

const registrationFields = z.object({
  code: requiredLine(FIELD_LIMITS.code),
  ...companyDetailsFields.shape,
  // The form asks whether the company is registered for VAT and only then wants its VAT number (checked below); the
  // API's clients, which follow the specification and never say, send the VAT number as text as before, or none.
  vatRegistered: optionalChoice(['yes', 'no']),
  vatNumber: optionalLine(FIELD_LIMITS.vatNumber),
  delegates: delegateList,
  // Required unless every delegate says how they attend (checked below).
  attendanceOption: optionalChoice(OPTION_KEYS),
  paymentMethod: requiredChoice(PAYMENT_METHODS, (value) => paymentMethodKeyOf(singleLine(value))),
  legalAgreement: ticked,
})

/** A registered delegate: their fields, how they attend, and (once priced) nothing more. */
export type RegisteredDelegate = DelegateSubmission & { attendance: Attendance }

/**
 * A registration that passed every rule, normalised, for the event it names: each delegate's attendance settled, and
 * its option the one its venue delegates are priced at ('online' when every delegate attends online).
 */
export type RegistrationSubmission = Omit<z.output<typeof registrationFields>, 'delegates' | 'attendanceOption'> & {
  eventSlug: string
  attendanceOption: OptionKey
  delegates: RegisteredDelegate[]
}

/** The registration form's fields as typed, before any rule: what a form keeps between round trips. */
export type RegistrationFormValues = { [Name in Exclude<keyof RegistrationSubmission, 'eventSlug' | 'delegates' | 'legalAgreement'>]: string } & {
  delegates: Array<Record<Exclude<keyof RegisteredDelegate, 'professionalRegistrationNumber'>, string> & { professionalRegistrationNumber?: string }>
  legalAgreement: boolean
}

// Cross-field rules run even when another field failed, so one answer lists every problem.
const always = { when: () => true }

/** A refusal of one field, as the option and delegate rules report it. */
type FieldIssue = { code: 'custom'; message: string; path: string[]; input: unknown; params?: { cap: number } }

/**
 * The rules a registration and a quotation share: the option is offered by the event and available at `now`, then
 * `delegateCount` (when it is a count to check) is within the option's cap.
 */
export function checkOptionAndDelegates(
  event: RegistrationEvent,
  now: Date,
  key: unknown,
  delegateCount: number | undefined,
  delegatesInput: unknown,
  addIssue: (issue: FieldIssue) => void,
): void {
  if (!isOptionKey(key)) return
  const option = event.priceOptions.find((candidate) => candidate.key === key)
  const availability = option ? optionAvailability(option, event, now) : undefined
  if (!availability) {
    addIssue({ code: 'custom', message: 'option-not-offered', path: ['attendanceOption'], input: key })
    return
  }
  if (!availability.available) {
    addIssue({
      code: 'custom',
      message: availability.reason === 'registration-closed' ? 'registration-closed' : 'option-unavailable',
      path: ['attendanceOption'],
      input: key,
    })
    return
  }
  if (delegateCount === undefined) return
  const cap = checkDelegateCap(key, delegateCount)
  if (!cap.ok) addIssue({ code: 'custom', message: 'delegate-cap', path: ['delegates'], params: { cap: cap.cap }, input: delegatesInput })
}

/**
 * The registration schema for an event at the site's date `now`: every field's rule, then the option offered and
 * available, then the delegates within the option's cap (at least one, at most MAX_DELEGATES for uncapped options).
 */
export function registrationSchemaFor(event: RegistrationEvent, now: Date) {
  const checked = z.pipe(
    ownFields,
    registrationFields.check(
      z.superRefine((registration, context) => {
        const delegates: unknown = registration.delegates
        const count = Array.isArray(delegates) && delegates.length > 0 && delegates.length <= MAX_DELEGATES ? delegates.length : undefined
        checkOptionAndDelegates(event, now, registration.attendanceOption, count, delegates, (issue) => context.addIssue(issue))
      }, always),
      z.superRefine((registration, context) => checkAttendances(event, now, registration, (issue) => context.addIssue(issue)), always),
      z.superRefine((registration, context) => {
        if (registration.vatRegistered !== 'yes' || typeof registration.vatNumber !== 'string') return
        if (registration.vatNumber === '') context.addIssue({ code: 'custom', message: 'required', path: ['vatNumber'], input: '' })
        else if (!isSouthAfricanVatNumber(registration.vatNumber)) {
          context.addIssue({ code: 'custom', message: 'invalid-vat-number', path: ['vatNumber'], input: registration.vatNumber })
        }
      }, always),
    ),
  )
  // A company that said it is not registered for VAT has no VAT number, whatever was left in the field.
  return z.pipe(
    checked,
    z.transform((registration: z.output<typeof registrationFields>) => ({
      ...registration,
      vatNumber: registration.vatRegistered === 'no' ? '' : vatNumberDigits(registration.vatNumber),
    })),
  )
}

/**
 * The option a delegate attending this way is priced at now (attendanceOptionKey): the chosen one for its own kind,
 * else online's or the per-delegate venue price in force; undefined when the event offers none of them now.
 */
export function attendanceOptionFor(event: RegistrationEvent, now: Date, chosen: OptionKey | '', attendance: Attendance): RegistrationPriceOption | undefined {
  const offered = (key: OptionKey) => event.priceOptions.find((candidate) => candidate.key === key)
  const key = attendanceOptionKey(chosen, attendance, (candidate) => {
    const option = offered(candidate)
    return option !== undefined && optionAvailability(option, event, now).available
  })
  return key === undefined ? undefined : offered(key)
}

/** Each delegate's attendance: their own when they say, else the chosen option's kind; undefined when neither says. */
function attendancesOf(chosen: unknown, delegates: unknown): Array<Attendance | undefined> {
  if (!Array.isArray(delegates)) return []
  const fallback = isOptionKey(chosen) ? attendanceOfOption(chosen) : undefined
  return delegates.map((delegate: unknown) => {
    const own = isRecord(delegate) ? singleLine(delegate.attendance) : ''
    return own === 'venue' || own === 'online' ? own : fallback
  })
}

/**
 * The rules of each delegate's attendance: the option is required unless every delegate says how they attend; a
 * table seats its delegates in the room ('table-venue-only' for one online); a delegate's attendance the event does
 * not offer now is 'attendance-unavailable' (the chosen option's own kind is checked as the option).
 */
function checkAttendances(
  event: RegistrationEvent,
  now: Date,
  registration: { attendanceOption: unknown; delegates: unknown },
  addIssue: (issue: FieldIssue) => void,
): void {
  const chosen = registration.attendanceOption
  const attendances = attendancesOf(chosen, registration.delegates)
  if (chosen === '' && (attendances.length === 0 || attendances.includes(undefined))) {
    addIssue({ code: 'custom', message: 'required', path: ['attendanceOption'], input: chosen })
  }
  if (chosen !== '' && !isOptionKey(chosen)) return
  attendances.forEach((attendance, index) => {
    if (attendance === undefined) return
    const path = ['delegates', String(index), 'attendance']
    if (chosen !== '' && isTableOption(chosen)) {
      if (attendance === 'online') addIssue({ code: 'custom', message: 'table-venue-only', path, input: attendance })
    } else if ((chosen === '' || attendanceOfOption(chosen) !== attendance) && !attendanceOptionFor(event, now, chosen, attendance)) {
      addIssue({ code: 'custom', message: 'attendance-unavailable', path, input: attendance })
    }
  })
}

export interface ValidatedRegistration {
  submission: RegistrationSubmission
  /** The registration's option: its venue delegates' when it has any, else online. */
  option: RegistrationPriceOption
  /** The option each kind of attendance with delegates is priced at. */
  options: Partial<Record<Attendance, RegistrationPriceOption>>
}

const eventSlugSchema = z.object({ event: requiredLine(FIELD_LIMITS.event) })

/** Reads the event's route slug from a submission: 'unknown-event' when it names none, 'invalid-request' for a body that is not an object. */
export function readEventSlug(input: unknown): string {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  const parsed = eventSlugSchema.safeParse(input)
  if (!parsed.success) throw new ValidationError('unknown-event', [{ path: 'event', code: 'unknown-event' }])
  return parsed.data.event
}

/**
 * Applies every registration rule to a submission for an event at the site's date `now` (registrationSchemaFor),
 * after checking that registration is open. Throws one ValidationError listing every offending field.
 */
export function validateRegistration(input: unknown, event: RegistrationEvent, now: Date): ValidatedRegistration {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  if (!isRegistrationOpen(event, now)) throw new ValidationError('registration-closed')
  const fields = parseSubmission(registrationSchemaFor(event, now), input)
  const chosen = fields.attendanceOption
  const fallback = chosen === '' ? undefined : attendanceOfOption(chosen)
  const delegates = fields.delegates.map(({ attendance, ...delegate }) => ({ ...delegate, attendance: attendance === '' ? fallback! : attendance }))
  const options: ValidatedRegistration['options'] = {}
  for (const attendance of ATTENDANCES) {
    if (!delegates.some((delegate) => delegate.attendance === attendance)) continue
    const option = attendanceOptionFor(event, now, chosen, attendance)
    if (!option) throw new ValidationError('invalid-request')
    options[attendance] = option
  }
  const option = options.venue ?? options.online
  if (!option) throw new ValidationError('invalid-request')
  return { submission: { eventSlug: event.slug, ...fields, attendanceOption: option.key, delegates }, option, options }
}
