import { describe, expect, it } from 'vitest'
import { ValidationError } from '../errors.ts'
import { INHERITED_NAMES, LEGAL_OPINION, RESILIENCE, SITE_NOW, registrationInput } from '../test-support.ts'
import { MAX_DELEGATES } from './choices.ts'
import { validateRegistration } from './registration.ts'

function delegates(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    name: `Delegate ${index + 1}`,
    position: 'Manager',
    email: `delegate${index + 1}@example.com`,
  }))
}

function failure(run: () => unknown): ValidationError {
  try {
    run()
  } catch (error) {
    if (error instanceof ValidationError) return error
    throw error
  }
  throw new Error('expected a ValidationError')
}

describe('validateRegistration', () => {
  it('accepts a complete registration and normalises it', () => {
    const { submission, option } = validateRegistration(
      registrationInput({ companyName: '  Acme   Legal Services ', sub: 'ignored', totalPrice: '0.01' }),
      LEGAL_OPINION,
      SITE_NOW,
    )
    expect(submission).toMatchObject({ eventSlug: 'legalOpinion', companyName: 'Acme Legal Services', attendanceOption: 'venue' })
    expect(submission).not.toHaveProperty('totalPrice')
    expect(option).toMatchObject({ key: 'venue', amount: 8990 })
  })

  it.each([
    ['code', { code: '' }, 'code'],
    ['companyName', { companyName: '   ' }, 'companyName'],
    ['address', { address: undefined }, 'address'],
    ['email', { email: '' }, 'email'],
    ['tel', { tel: null }, 'tel'],
    ['the VAT number of a company registered for VAT', { vatRegistered: 'yes', vatNumber: ' ' }, 'vatNumber'],
    ['attendanceOption', { attendanceOption: '' }, 'attendanceOption'],
    ['paymentMethod', { paymentMethod: '' }, 'paymentMethod'],
    ['a delegate name', { delegates: [{ name: '', position: 'Clerk', email: 'a@example.com' }] }, 'delegates.0.name'],
    ['a delegate position', { delegates: [{ name: 'A', position: '', email: 'a@example.com' }] }, 'delegates.0.position'],
    ['a delegate e-mail', { delegates: [{ name: 'A', position: 'Clerk' }] }, 'delegates.0.email'],
  ])('requires %s', (_label, override, path) => {
    const error = failure(() => validateRegistration(registrationInput(override), LEGAL_OPINION, SITE_NOW))
    expect(error.code).toBe('missing-fields')
    expect(error.issues).toEqual([{ path, code: 'required' }])
  })

  it("asks a VAT number only of a company registered for VAT, and takes the API's as before", () => {
    const submission = (override: Record<string, unknown>) => validateRegistration(registrationInput(override), LEGAL_OPINION, SITE_NOW).submission
    expect(submission({ vatRegistered: 'yes', vatNumber: '4123 456 789' }).vatNumber).toBe('4123456789')
    expect(submission({ vatRegistered: 'no', vatNumber: '4123456789' }).vatNumber).toBe('')
    expect(submission({ vatRegistered: 'no', vatNumber: undefined }).vatNumber).toBe('')
    // The API's clients follow the specification: they never say whether they are registered, and their text is kept.
    expect(submission({ vatNumber: 'VAT 4123456789' }).vatNumber).toBe('VAT 4123456789')
    expect(submission({ vatNumber: undefined }).vatNumber).toBe('')
    for (const vatNumber of ['5123456789', '412345678', '41234567890', 'N/A']) {
      const error = failure(() => validateRegistration(registrationInput({ vatRegistered: 'yes', vatNumber }), LEGAL_OPINION, SITE_NOW))
      expect(error.code).toBe('invalid-vat-number')
      expect(error.issues).toEqual([{ path: 'vatNumber', code: 'invalid-vat-number' }])
    }
    expect(failure(() => validateRegistration(registrationInput({ vatRegistered: 'maybe' }), LEGAL_OPINION, SITE_NOW)).issues).toEqual([
      { path: 'vatRegistered', code: 'invalid-choice' },
    ])
  })

  it('takes an optional purchase order number on one line', () => {
    expect(validateRegistration(registrationInput(), LEGAL_OPINION, SITE_NOW).submission.purchaseOrderNumber).toBe('')
    expect(validateRegistration(registrationInput({ purchaseOrderNumber: ' PO\n4471 ' }), LEGAL_OPINION, SITE_NOW).submission.purchaseOrderNumber).toBe(
      'PO 4471',
    )
    expect(failure(() => validateRegistration(registrationInput({ purchaseOrderNumber: 'P'.repeat(61) }), LEGAL_OPINION, SITE_NOW)).issues).toEqual([
      { path: 'purchaseOrderNumber', code: 'too-long', maximum: 60 },
    ])
  })

  it('lists every missing field at once', () => {
    const error = failure(() => validateRegistration({ event: 'legalOpinion', legalAgreement: true, delegates: [{}] }, LEGAL_OPINION, SITE_NOW))
    expect(error.code).toBe('missing-fields')
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'code',
      'companyName',
      'address',
      'email',
      'tel',
      'delegates.0.name',
      'delegates.0.position',
      'delegates.0.email',
      'paymentMethod',
      // Required only when a delegate does not say how they attend: a rule across fields, checked after each field's own.
      'attendanceOption',
    ])
  })

  it.each([
    ['an invalid registrant e-mail', { email: 'bookings-at-acme' }, 'invalid-email', 'email'],
    ['an invalid delegate e-mail', { delegates: [{ name: 'A', position: 'B', email: 'a@b' }] }, 'invalid-email', 'delegates.0.email'],
    ['an unticked legal agreement', { legalAgreement: false }, 'missing-fields', 'legalAgreement'],
    ['a legal agreement sent as text', { legalAgreement: 'no' }, 'missing-fields', 'legalAgreement'],
    ['no delegates', { delegates: [] }, 'no-delegates', 'delegates'],
    ['delegates that are not a list', { delegates: 'Thandi' }, 'no-delegates', 'delegates'],
    ['an unknown payment method', { paymentMethod: 'Cash' }, 'invalid-choice', 'paymentMethod'],
    ['an unknown option', { attendanceOption: 'Venue (R7990.00)' }, 'invalid-choice', 'attendanceOption'],
    ['a table option on a workshop', { attendanceOption: 'table-5' }, 'option-not-offered', 'attendanceOption'],
    ['a too long company name', { companyName: 'A'.repeat(201) }, 'too-long', 'companyName'],
    ['a too long address', { address: 'A'.repeat(1001) }, 'too-long', 'address'],
    ['a too long telephone number', { tel: '1'.repeat(41) }, 'too-long', 'tel'],
    ['more delegates than any registration needs', { delegates: delegates(MAX_DELEGATES + 1) }, 'too-many-delegates', 'delegates'],
    ...INHERITED_NAMES.flatMap((name): Array<[string, Record<string, unknown>, string, string]> => [
      [`the payment method ${name}`, { paymentMethod: name }, 'invalid-choice', 'paymentMethod'],
      [`the option ${name}`, { attendanceOption: name }, 'invalid-choice', 'attendanceOption'],
    ]),
  ])('refuses %s', (_label, override, code, path) => {
    const error = failure(() => validateRegistration(registrationInput(override), LEGAL_OPINION, SITE_NOW))
    expect(error.code).toBe(code)
    expect(error.issues.map((issue) => issue.path)).toContain(path)
  })

  it('allows up to the sane maximum of delegates for per-delegate options', () => {
    const { submission } = validateRegistration(registrationInput({ delegates: delegates(MAX_DELEGATES) }), LEGAL_OPINION, SITE_NOW)
    expect(submission.delegates).toHaveLength(MAX_DELEGATES)
  })

  it.each([
    ['table-5', 5],
    ['table-10', 10],
  ])('caps %s at %i delegates with the specification message', (option, cap) => {
    const input = registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: option })
    expect(validateRegistration({ ...input, delegates: delegates(cap) }, RESILIENCE, SITE_NOW).submission.delegates).toHaveLength(cap)
    const error = failure(() => validateRegistration({ ...input, delegates: delegates(cap + 1) }, RESILIENCE, SITE_NOW))
    expect(error.code).toBe('delegate-cap')
    expect(error.issues).toEqual([{ path: 'delegates', code: 'delegate-cap', cap }])
  })

  it('offers early-bird until the end of its date in Johannesburg', () => {
    const input = registrationInput({ event: 'Resilience', attendanceOption: 'early-bird' })
    expect(validateRegistration(input, RESILIENCE, new Date('2025-06-13T23:59:00+02:00')).option.key).toBe('early-bird')
    const error = failure(() => validateRegistration(input, RESILIENCE, new Date('2025-06-14T00:00:00+02:00')))
    expect(error.code).toBe('option-unavailable')
    expect(error.issues).toEqual([{ path: 'attendanceOption', code: 'option-unavailable' }])
  })

  it('closes registration when the event starts, or at its own closing time', () => {
    const closed = failure(() => validateRegistration(registrationInput(), LEGAL_OPINION, new Date(LEGAL_OPINION.start)))
    expect(closed.code).toBe('registration-closed')
    const early = { ...LEGAL_OPINION, registrationClosesAt: '2025-06-30T15:00:00Z' }
    expect(failure(() => validateRegistration(registrationInput(), early, new Date('2025-06-30T15:00:00Z'))).code).toBe('registration-closed')
    expect(validateRegistration(registrationInput(), early, new Date('2025-06-30T14:59:59Z')).option.key).toBe('venue')
  })

  it.each([null, undefined, 42, 'legalOpinion', [], [registrationInput()]])('refuses a body that is not an object: %j', (input) => {
    expect(failure(() => validateRegistration(input, LEGAL_OPINION, SITE_NOW)).code).toBe('invalid-request')
  })

  it('only ever throws ValidationError, whatever the shape of the fields', () => {
    const oddValues: unknown[] = [null, 0, -1, true, {}, [], [[]], { length: 1e9 }, '\u0000', 'x'.repeat(100_000), Symbol.for('x')]
    const keys = ['code', 'companyName', 'address', 'email', 'tel', 'vatNumber', 'delegates', 'attendanceOption', 'paymentMethod', 'legalAgreement']
    for (const key of keys) {
      for (const value of oddValues) {
        try {
          validateRegistration(registrationInput({ [key]: value }), LEGAL_OPINION, SITE_NOW)
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError)
        }
      }
    }
    const hostile = JSON.parse('{"__proto__": {"companyName": "polluted"}, "delegates": [{"__proto__": {"name": "x"}}]}') as unknown
    expect(failure(() => validateRegistration(hostile, LEGAL_OPINION, SITE_NOW)).issues).toContainEqual({ path: 'companyName', code: 'required' })
  })
})

describe('validateRegistration with several problems', () => {
  it('counts an unticked legal agreement as a missing field', () => {
    const error = failure(() => validateRegistration(registrationInput({ legalAgreement: false }), LEGAL_OPINION, SITE_NOW))
    expect(error.code).toBe('missing-fields')
    expect(error.issues).toEqual([{ path: 'legalAgreement', code: 'not-accepted' }])
  })

  it('leads with missing-fields and keeps every field issue', () => {
    const error = failure(() => validateRegistration(registrationInput({ email: 'not-an-address', tel: '', legalAgreement: false }), LEGAL_OPINION, SITE_NOW))
    expect(error.code).toBe('missing-fields')
    expect(error.issues).toEqual([
      { path: 'email', code: 'invalid-email' },
      { path: 'tel', code: 'required' },
      { path: 'legalAgreement', code: 'not-accepted' },
    ])
  })
})
