import { BACK_OFFICE_ERROR_CODES, BackOfficeError, INPUT_PROBLEMS, MISSING_THINGS, ValidationError, type FieldIssue } from '@events/core'
import { describe, expect, it } from 'vitest'
import { backOfficeRefusal, fieldMessage, refusalBody, roleRefusal, validationRefusal, type SubmissionKind } from './refusals'

const required = (path: string): FieldIssue => ({ path, code: 'required' })

describe('fieldMessage', () => {
  it.each<[SubmissionKind, FieldIssue, string]>([
    ['registration', required('code'), 'Code is required'],
    ['registration', required('companyName'), 'Company name is required'],
    ['registration', required('address'), 'Address is required'],
    ['registration', required('email'), 'E-mail is required'],
    ['registration', required('tel'), 'Telephone is required'],
    ['registration', required('vatNumber'), 'VAT number is required'],
    ['registration', required('attendanceOption'), 'Attendance option is required'],
    ['registration', required('paymentMethod'), 'Payment method is required'],
    ['registration', required('delegates.0.name'), 'Name is required'],
    ['registration', required('delegates.3.position'), 'Position is required'],
    ['registration', required('delegates.0.email'), 'E-mail is required'],
    ['registration', { path: 'legalAgreement', code: 'not-accepted' }, 'Please accept the terms and conditions before submitting.'],
    ['registration', { path: 'email', code: 'invalid-email' }, 'Please enter a valid e-mail address.'],
    ['registration', { path: 'companyName', code: 'too-long', maximum: 200 }, 'Please keep this to at most 200 characters.'],
    ['registration', { path: 'delegates', code: 'delegate-cap', cap: 5 }, 'You can only add up to 5 delegates for this option.'],
    ['registration', { path: 'delegates', code: 'no-delegates' }, 'Please add at least one delegate.'],
    ['registration', { path: 'attendanceOption', code: 'option-unavailable' }, 'This attendance option is no longer available. Please choose another option.'],
    [
      'registration',
      { path: 'attendanceOption', code: 'sold-out', seatsLeft: 0, seatKind: 'venue', seatsWanted: 1 },
      'Sorry, this event is sold out at the venue.',
    ],
    ['registration', { path: 'attendanceOption', code: 'sold-out', seatsLeft: 0, seatKind: 'online', seatsWanted: 2 }, 'Sorry, this event is sold out online.'],
    [
      'registration',
      { path: 'attendanceOption', code: 'sold-out', seatsLeft: 3, seatKind: 'venue', seatsWanted: 5 },
      'Sorry, only 3 seats are left at the venue; this registration needs 5. Please register fewer delegates.',
    ],
    [
      'registration',
      { path: 'attendanceOption', code: 'sold-out', seatsLeft: 1, seatKind: 'online', seatsWanted: 2 },
      'Sorry, only 1 seat is left online; this registration needs 2. Please register fewer delegates.',
    ],
    ['contact', required('fullName'), 'Full name is required'],
    ['contact', required('email'), 'Email is required'],
    ['contact', required('interest'), 'Interest is required'],
    ['contact', { path: 'interest', code: 'invalid-choice' }, 'Please choose one of the options offered.'],
    ['training', required('name'), 'Name is required'],
    ['training', required('phone'), 'Phone is required'],
    ['training', required('organization'), 'Organization is required'],
    ['training', required('message'), 'Message is required'],
    // Staff are told the same things without the "Please" visitors are asked with, and what a tick box confirms.
    ['back-office', { path: 'email', code: 'invalid-email' }, 'Enter a valid e-mail address.'],
    ['back-office', { path: 'mail', code: 'invalid-choice' }, 'Choose one of the options offered.'],
    ['back-office', { path: 'tel', code: 'invalid-phone' }, 'Enter a valid telephone number, e.g. 011 555 0100, or +44 20 7946 0958 from abroad.'],
    ['back-office', { path: 'delegateIds', code: 'no-delegates' }, 'Choose the delegates to cancel, or cancel the whole registration.'],
    ['back-office', { path: 'confirm', code: 'not-accepted' }, 'Tick the box to confirm first.'],
    ['back-office', { path: 'receivedOn', code: 'date-before-registration' }, 'The date cannot be before the registration was made.'],
  ])('%s %j -> %s', (kind, issue, message) => {
    expect(fieldMessage(issue, kind)).toBe(message)
  })
})

describe('validationRefusal', () => {
  it('leads with the required-fields sentence and words every field', () => {
    const error = new ValidationError('missing-fields', [
      { path: 'email', code: 'invalid-email' },
      required('tel'),
      { path: 'legalAgreement', code: 'not-accepted' },
    ])
    expect(validationRefusal(error, 'registration')).toEqual({
      status: 422,
      body: {
        error: {
          code: 'missing-fields',
          message: 'Please fill in all required fields before submitting.',
          fields: {
            email: 'Please enter a valid e-mail address.',
            tel: 'Telephone is required',
            legalAgreement: 'Please accept the terms and conditions before submitting.',
          },
        },
      },
    })
  })

  it('leads with the field’s own message when the refusal is that field’s, the cap with its number', () => {
    const refusal = validationRefusal(new ValidationError('delegate-cap', [{ path: 'delegates', code: 'delegate-cap', cap: 10 }]), 'registration')
    expect(refusal.status).toBe(422)
    expect(refusal.body.error.message).toBe('You can only add up to 10 delegates for this option.')
    expect(refusal.body.error.fields).toEqual({ delegates: 'You can only add up to 10 delegates for this option.' })
  })

  it.each([
    ['registration-closed', 409, 'Registration for this event has closed.'],
    ['unknown-event', 404, 'This event does not exist or is no longer open for registration.'],
    ['idempotency-conflict', 409, 'This submission was already received with different details. Please reload the form and submit again.'],
    ['rate-limited', 429, 'Too many submissions from your connection. Please wait a minute and try again.'],
    ['invalid-request', 400, 'The submission could not be read. Please try again.'],
  ] as const)('answers %s with %i and its message', (code, status, message) => {
    expect(validationRefusal(new ValidationError(code), 'contact')).toEqual({ status, body: { error: { code, message, fields: {} } } })
  })

  it('refuses a sold-out registration with 409, leading with how many seats are left', () => {
    const error = new ValidationError('sold-out', [{ path: 'attendanceOption', code: 'sold-out', seatsLeft: 0, seatKind: 'venue', seatsWanted: 1 }])
    expect(validationRefusal(error, 'registration')).toEqual({
      status: 409,
      body: {
        error: {
          code: 'sold-out',
          message: 'Sorry, this event is sold out at the venue.',
          fields: { attendanceOption: 'Sorry, this event is sold out at the venue.' },
        },
      },
    })
  })

  it('keeps the summary of an unreadable submission when one field is at fault', () => {
    const error = new ValidationError('invalid-request', [{ path: 'idempotencyKey', code: 'too-long', maximum: 255 }])
    expect(validationRefusal(error, 'registration').body.error).toEqual({
      code: 'invalid-request',
      message: 'The submission could not be read. Please try again.',
      fields: { idempotencyKey: 'Please keep this to at most 255 characters.' },
    })
  })
})

it('answers a refusal of the HTTP layer with its message and no field', () => {
  expect(refusalBody('payload-too-large')).toEqual({
    error: { code: 'payload-too-large', message: 'The submission is too large. Please shorten it and try again.', fields: {} },
  })
})

describe('backOfficeRefusal', () => {
  // Every figure a wording might name has a plausible value here (a day for days, a number otherwise), so a wording
  // that forgot one, or a code without wording, shows.
  const figuresWith = (own: Record<string, string>) =>
    new Proxy(own, {
      get: (target, key) => {
        if (typeof key !== 'string') return undefined
        if (key in target) return target[key]
        if (key === 'at') return '2025-03-05T08:00:00Z'
        return /day|On$/i.test(key) ? '2025-03-05' : '7'
      },
    }) as Record<string, string>
  const worded = (error: BackOfficeError) => backOfficeRefusal(error)

  const everyRefusal: Array<[string, BackOfficeError]> = [
    ...BACK_OFFICE_ERROR_CODES.filter((code) => code !== 'not-found' && code !== 'invalid-input').map((code): [string, BackOfficeError] => [
      code,
      new BackOfficeError(code, figuresWith({})),
    ]),
    ...MISSING_THINGS.map((missing): [string, BackOfficeError] => [
      `not-found: ${missing}`,
      new BackOfficeError('not-found', figuresWith({ missing }) as { missing: typeof missing }),
    ]),
    ...INPUT_PROBLEMS.map((problem): [string, BackOfficeError] => [
      `invalid-input: ${problem}`,
      new BackOfficeError('invalid-input', figuresWith({ problem }) as { problem: typeof problem }),
    ]),
  ]

  it.each(everyRefusal)('words %s for staff, with an HTTP status', (_code, error) => {
    const { status, message } = worded(error)
    expect(status).toBeGreaterThanOrEqual(400)
    expect(status).toBeLessThan(500)
    expect(message).toMatch(/^[^a-z\s]/)
    expect(message).not.toMatch(/undefined|\[object|NaN/)
  })

  it('carries no English from the core: the wording comes from the code and its figures alone', () => {
    const error = new BackOfficeError('not-found', { missing: 'registration', reference: '7KQ2M9XA' })
    expect(error.message).toBe('not-found {"missing":"registration","reference":"7KQ2M9XA"}')
    expect(worded(error).message).toBe('No registration has the reference 7KQ2M9XA.')
  })
})

describe('a refusal for want of a role', () => {
  it.each([
    ['manager', 'Refused: this needs the manager or owner role, and your account has the staff role. Ask a manager to do it.'],
    ['owner', 'Refused: this needs the owner role, and your account does not have it. Ask an owner to do it.'],
  ])('reads as a refusal and names the %s role it needs', (role, message) => {
    expect(backOfficeRefusal(new BackOfficeError('role-required', { role }))).toEqual({ status: 403, message })
    expect(roleRefusal(role as 'owner' | 'manager')).toEqual({ status: 403, message })
    expect(message).not.toMatch(/cancellation instead/)
  })
})
