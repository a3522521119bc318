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
      new BackOfficeError('duplicate-bank-reference', { reference: 'ABC', receivedOn: '2025-02-28' }, 'bankReference'),
      {
        status: 409,
        message: NOTHING_CHANGED,
        fields: { reference: 'This bank reference was already recorded (registration ABC, received 2025-02-28). A transfer is recorded once.' },
      },
    ],
    [
      'a refusal of the whole form',
      new BackOfficeError('already-paid', { reference: 'ABC' }),
      {
        status: 409,
        message: 'This registration was paid by card; nothing is outstanding. Pay a second payment back to whoever sent it rather than recording it here.',
        fields: {},
      },
    ],
    [
      'an unknown registration',
      new BackOfficeError('not-found', { missing: 'registration', reference: 'X' }),
      { status: 404, message: 'No registration has the reference X.', fields: {} },
    ],
    [
      'input the core cannot take',
      new BackOfficeError('invalid-input', { problem: 'registration-reference', length: 8 }, 'reference'),
      { status: 400, message: NOTHING_CHANGED, fields: { reference: "Enter the registration's reference: 8 letters and digits, e.g. 7KQ2M9XA." } },
    ],
    [
      'a bank file refused for a row, worded from the figures core names',
      new BackOfficeError('statement-row-cells', { row: 7, cells: 5, headingCells: 4, content: 'a,b,c,d,e' }),
      {
        status: 400,
        message:
          "Row 7 of the file has 5 cells where its heading has 4, so its amount cannot be read with certainty: “a,b,c,d,e”. Export the statement again (or put that row's description in quotes); nothing was imported.",
        fields: {},
      },
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
