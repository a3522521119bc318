import {
  checkDelegateCap,
  isOptionKey,
  isRegistrationOpen,
  optionAvailability,
  type OptionKey,
} from '@events/pricing'
import type { RegistrationEvent, RegistrationPriceOption } from '../catalog.ts'
import { errorMessage, LEGAL_AGREEMENT_MESSAGE, ValidationError } from '../errors.ts'
import {
  field,
  isRecord,
  isTicked,
  Issues,
  MAX_EMAIL_LENGTH,
  multiLine,
  requireEmail,
  requireText,
  singleLine,
  type InputRecord,
} from '../validation/fields.ts'

export const PAYMENT_METHODS = ['Bank Transfer', 'Credit/Debit Card'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** Delegates one registration may list when its option sets no cap. */
export const MAX_DELEGATES = 50

export const FIELD_LIMITS = {
  event: 100,
  code: 40,
  companyName: 200,
  address: 1000,
  email: MAX_EMAIL_LENGTH,
  tel: 40,
  vatNumber: 40,
  delegateName: 200,
  delegatePosition: 200,
} as const

export interface DelegateSubmission {
  name: string
  position: string
  email: string
}

/** A registration that passed every rule, normalised. */
export interface RegistrationSubmission {
  eventSlug: string
  code: string
  companyName: string
  address: string
  email: string
  tel: string
  vatNumber: string
  delegates: DelegateSubmission[]
  attendanceOption: OptionKey
  paymentMethod: PaymentMethod
}

export interface ValidatedRegistration {
  submission: RegistrationSubmission
  option: RegistrationPriceOption
}

function isPaymentMethod(value: string): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value)
}

/** Reads the event's route slug from a submission, or throws 'invalid-request' when there is none. */
export function readEventSlug(input: unknown): string {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  const slug = singleLine(field(input, 'event'))
  if (slug === '' || slug.length > FIELD_LIMITS.event) throw new ValidationError('unknown-event', { event: errorMessage('unknown-event') })
  return slug
}

function readDelegates(input: InputRecord, issues: Issues): DelegateSubmission[] {
  const raw = field(input, 'delegates')
  const list = Array.isArray(raw) ? raw : []
  // Stop before reading a huge list: a registration never needs more rows than the sane maximum.
  if (list.length > MAX_DELEGATES) {
    issues.add('delegates', 'too-many-delegates')
    return []
  }
  return list.map((entry: unknown, index) => {
    const delegate = isRecord(entry) ? entry : {}
    const name = singleLine(field(delegate, 'name'))
    const position = singleLine(field(delegate, 'position'))
    const email = singleLine(field(delegate, 'email'))
    requireText(issues, `delegates.${index}.name`, name, FIELD_LIMITS.delegateName, 'Name')
    requireText(issues, `delegates.${index}.position`, position, FIELD_LIMITS.delegatePosition, 'Position')
    requireEmail(issues, `delegates.${index}.email`, email, 'E-mail')
    return { name, position, email }
  })
}

function checkOption(
  issues: Issues,
  event: RegistrationEvent,
  rawOption: string,
  now: Date,
): RegistrationPriceOption | undefined {
  if (rawOption === '') {
    issues.addMissing('attendanceOption', 'Attendance option')
    return undefined
  }
  if (!isOptionKey(rawOption)) {
    issues.add('attendanceOption', 'invalid-choice')
    return undefined
  }
  const option = event.priceOptions.find((candidate) => candidate.key === rawOption)
  if (!option) {
    issues.add('attendanceOption', 'option-not-offered')
    return undefined
  }
  const availability = optionAvailability(option, event, now)
  if (!availability.available) {
    issues.add('attendanceOption', availability.reason === 'registration-closed' ? 'registration-closed' : 'option-unavailable')
    return undefined
  }
  return option
}

function checkDelegateCount(issues: Issues, option: RegistrationPriceOption | undefined, count: number): void {
  if (issues.has('delegates')) return
  if (count === 0) {
    issues.add('delegates', 'no-delegates')
    return
  }
  const capCheck = checkDelegateCap(option?.key, count)
  if (!capCheck.ok) issues.add('delegates', 'delegate-cap', capCheck.message)
}

/**
 * Applies every registration rule to a submission for an event at the site's date `now`: required fields,
 * e-mail syntax, lengths, delegates (at least one, at most the option's cap), the option offered and available,
 * registration open, legal agreement. Throws one ValidationError listing every offending field.
 */
export function validateRegistration(input: unknown, event: RegistrationEvent, now: Date): ValidatedRegistration {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  if (!isRegistrationOpen(event, now)) throw new ValidationError('registration-closed')

  const issues = new Issues()
  const code = singleLine(field(input, 'code'))
  const companyName = singleLine(field(input, 'companyName'))
  const address = multiLine(field(input, 'address'))
  const email = singleLine(field(input, 'email'))
  const tel = singleLine(field(input, 'tel'))
  const vatNumber = singleLine(field(input, 'vatNumber'))
  const rawOption = singleLine(field(input, 'attendanceOption'))
  const rawPaymentMethod = singleLine(field(input, 'paymentMethod'))

  requireText(issues, 'code', code, FIELD_LIMITS.code, 'Code')
  requireText(issues, 'companyName', companyName, FIELD_LIMITS.companyName, 'Company name')
  requireText(issues, 'address', address, FIELD_LIMITS.address, 'Address')
  requireEmail(issues, 'email', email, 'E-mail')
  requireText(issues, 'tel', tel, FIELD_LIMITS.tel, 'Telephone')
  requireText(issues, 'vatNumber', vatNumber, FIELD_LIMITS.vatNumber, 'VAT number')
  const delegates = readDelegates(input, issues)
  const option = checkOption(issues, event, rawOption, now)
  if (rawPaymentMethod === '') issues.addMissing('paymentMethod', 'Payment method')
  else if (!isPaymentMethod(rawPaymentMethod)) issues.add('paymentMethod', 'invalid-choice')
  // The specification counts the agreement among the required fields; the field itself says what to do.
  if (!isTicked(field(input, 'legalAgreement'))) issues.add('legalAgreement', 'missing-fields', LEGAL_AGREEMENT_MESSAGE)
  checkDelegateCount(issues, option, delegates.length)

  issues.throwIfAny()
  if (!option || !isPaymentMethod(rawPaymentMethod)) throw new ValidationError('invalid-request')
  return {
    submission: {
      eventSlug: event.slug,
      code,
      companyName,
      address,
      email,
      tel,
      vatNumber,
      delegates,
      attendanceOption: option.key,
      paymentMethod: rawPaymentMethod,
    },
    option,
  }
}
