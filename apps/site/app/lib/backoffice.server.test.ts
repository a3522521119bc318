import { BackOfficeError, ValidationError } from '@events/core'
import { createLogger } from '@events/observability'
import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { attemptChange, businessToday, hasStarted, NOTHING_CHANGED } from './backoffice.server'
import { requestFactsContext, servicesContext, type SiteServices } from './services.server'

function contextAt(now: string) {
  const context = new RouterContextProvider()
  context.set(servicesContext, { config: { now: () => new Date(now) } } as unknown as SiteServices)
  context.set(requestFactsContext, { clientIp: '198.51.100.7', log: createLogger({ level: 'silent' }), cspNonce: '', preview: false, dataRequest: false })
  return context
}

const context = contextAt('2025-03-01T07:00:00Z')

describe('attemptChange', () => {
  it('answers the change when it succeeds', async () => {
    expect(await attemptChange(context, async () => 'recorded')).toEqual({ ok: true, value: 'recorded' })
  })

  it.each([
    [
      'a refusal naming its field, under the form’s name for it',
      new BackOfficeError('duplicate-bank-reference', 'Bank reference FNB 1 was already recorded.', 'bankReference'),
      { status: 409, message: NOTHING_CHANGED, fields: { reference: 'Bank reference FNB 1 was already recorded.' } },
    ],
    [
      'a refusal of the whole form',
      new BackOfficeError('already-paid', 'Registration ABC is already paid in full; nothing is outstanding.'),
      { status: 409, message: 'Registration ABC is already paid in full; nothing is outstanding.', fields: {} },
    ],
    [
      'an unknown registration',
      new BackOfficeError('not-found', 'No registration has the reference X.'),
      { status: 404, message: 'No registration has the reference X.', fields: {} },
    ],
    [
      'input the core cannot take',
      new BackOfficeError('invalid-input', 'The date received cannot be later than today.', 'receivedOn'),
      { status: 400, message: NOTHING_CHANGED, fields: { receivedOn: 'The date received cannot be later than today.' } },
    ],
    [
      'the registration form’s own validation',
      new ValidationError('missing-fields', [
        { path: 'name', code: 'required' },
        { path: 'email', code: 'invalid-email' },
      ]),
      {
        status: 422,
        message: 'Please fill in all required fields before submitting.',
        fields: { name: 'Name is required', email: 'Please enter a valid e-mail address.' },
      },
    ],
  ])('turns %s into the form’s refusal', async (_case, error, refusal) => {
    const outcome = await attemptChange(context, () => Promise.reject(error), { bankReference: 'reference' })
    expect(outcome).toEqual({ ok: false, ...refusal })
  })

  it('lets any other error go on', async () => {
    await expect(attemptChange(context, () => Promise.reject(new TypeError('a bug')))).rejects.toThrow('a bug')
  })
})

describe('the business clock', () => {
  it('answers today in Johannesburg, two hours ahead of UTC', () => {
    expect(businessToday(contextAt('2025-03-01T21:59:00Z'))).toBe('2025-03-01')
    expect(businessToday(contextAt('2025-03-01T22:00:00Z'))).toBe('2025-03-02')
  })

  it('says an event has started from its first moment', () => {
    expect(hasStarted(contextAt('2025-07-03T06:29:59Z'), '2025-07-03T06:30:00Z')).toBe(false)
    expect(hasStarted(contextAt('2025-07-03T06:30:00Z'), '2025-07-03T06:30:00Z')).toBe(true)
  })
})
