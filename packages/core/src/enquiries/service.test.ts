import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ValidationError } from '../errors.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { INHERITED_NAMES, TEST_BACKENDS, fixedCatalog, openTestDatabase, useMailSink, type TestDatabase } from '../test-support.ts'
import { normaliseInterest } from '../submissions/enquiries.ts'
import { createEnquiryService } from './service.ts'

const CONTACT = {
  fullName: 'Naledi Dlamini',
  companyName: '',
  email: 'naledi@example.org',
  phone: '+27 82 000 0000',
  interest: 'Conference',
  message: 'Please send the programme.',
}

const TRAINING = {
  kind: 'inhouse',
  name: 'Sipho Mokoena',
  email: 'sipho@example.org',
  phone: '+27 11 000 0003',
  organization: 'City of Example',
  message: 'Board governance for 20 people',
}

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ValidationError) return error
    throw error
  }
  throw new Error('expected a ValidationError')
}

describe('normaliseInterest', () => {
  it.each([
    ['Inhouse Training', 'Inhouse Training'],
    ['Online Training', 'Online Training'],
    ['Conference', 'Conference'],
    ['Workshop', 'Workshop'],
    ['Opportunity To Speak', 'Opportunity To Speak'],
    ['Opportunity', 'Opportunity To Speak'],
    ['Sponsorship', 'Sponsorship'],
    ['Sponsership', 'Sponsorship'],
    ['other', 'other'],
    ['Other things', undefined],
    ['', undefined],
  ])('%j -> %j', (value, expected) => {
    expect(normaliseInterest(value)).toBe(expected)
  })
})

describe.each(TEST_BACKENDS)('enquiry service on %s', (backend) => {
  let testDb: TestDatabase
  const { sink, transport } = useMailSink()
  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const service = () => createEnquiryService({ db: testDb.db, catalog: fixedCatalog(), organiserEmail: 'organiser@example.com' })
  const stored = async () => ({
    contact: (await testDb.db.kysely.selectFrom('contact_enquiries').selectAll().execute()).length,
    training: (await testDb.db.kysely.selectFrom('training_requests').selectAll().execute()).length,
    outbox: (await testDb.db.kysely.selectFrom('outbox_messages').selectAll().execute()).length,
  })

  // Anyone can type someone else's address into a form: what reaches that address must carry none of their words.
  const HOSTILE_NAME = 'Claim your prize at http://prize.example'
  const HOSTILE_MESSAGE = 'Your account is suspended. Log in at http://phish.example/login to restore it.'
  it.each([
    ['contact form', () => service().submitContactEnquiry({ ...CONTACT, email: 'victim@example.net', fullName: HOSTILE_NAME, message: HOSTILE_MESSAGE })],
    ['training request', () => service().submitTrainingRequest({ ...TRAINING, email: 'victim@example.net', name: HOSTILE_NAME, message: HOSTILE_MESSAGE })],
  ])('the %s acknowledgement quotes nothing the visitor wrote; the organiser copy keeps it all', async (_form, submit) => {
    await submit()
    await deliverDueMessages({ db: testDb.db, transport: transport(), log: () => undefined })
    const to = (address: string) => sink().received.filter((mail) => mail.recipients.includes(address))
    const [acknowledgement] = to('victim@example.net')
    expect(to('victim@example.net')).toHaveLength(1)
    const seen = `${acknowledgement!.parsed.subject}\n${acknowledgement!.parsed.text}\n${String(acknowledgement!.parsed.html)}`
    for (const words of [HOSTILE_NAME, HOSTILE_MESSAGE, 'prize.example', 'phish.example', 'Claim your prize', 'suspended']) expect(seen).not.toContain(words)
    expect(acknowledgement!.parsed.text).toContain('reply to this address')
    const [organiserCopy] = to('organiser@example.com')
    expect(organiserCopy!.parsed.text).toContain(HOSTILE_NAME)
    expect(organiserCopy!.parsed.text).toContain(HOSTILE_MESSAGE)
    expect(organiserCopy!.parsed.replyTo?.text).toContain('victim@example.net')
  })

  describe('contact form', () => {
    it('stores the enquiry, the legacy interest spelled anew, with its two e-mails', async () => {
      await service().submitContactEnquiry({ ...CONTACT, interest: 'Sponsership' })
      const row = await testDb.db.kysely.selectFrom('contact_enquiries').selectAll().executeTakeFirstOrThrow()
      expect(row).toMatchObject({ full_name: 'Naledi Dlamini', company_name: null, interest: 'Sponsorship' })
      expect(await stored()).toEqual({ contact: 1, training: 0, outbox: 2 })
    })

    it.each([
      ['fullName', { fullName: '' }, 'missing-fields'],
      ['email', { email: ' ' }, 'missing-fields'],
      ['phone', { phone: undefined }, 'missing-fields'],
      ['interest', { interest: '' }, 'missing-fields'],
      ['message', { message: '\n\n' }, 'missing-fields'],
      ['email', { email: 'naledi' }, 'invalid-email'],
      ['interest', { interest: 'Lottery' }, 'invalid-choice'],
      ...INHERITED_NAMES.map((name): [string, Record<string, unknown>, string] => ['interest', { interest: name }, 'invalid-choice']),
      ['message', { message: 'x'.repeat(5001) }, 'too-long'],
      ['companyName', { companyName: 'x'.repeat(201) }, 'too-long'],
    ])('refuses a bad %s (%j)', async (path, override, code) => {
      const error = await rejection(service().submitContactEnquiry({ ...CONTACT, ...override }))
      expect(error.code).toBe(code)
      expect(error.issues.map((issue) => issue.path)).toEqual([path])
      expect(await stored()).toEqual({ contact: 0, training: 0, outbox: 0 })
    })

    it('refuses with missing-fields, naming each missing field', async () => {
      const error = await rejection(service().submitContactEnquiry({ companyName: 'Acme' }))
      expect(error.code).toBe('missing-fields')
      expect(error.issues).toEqual(['fullName', 'email', 'phone', 'interest', 'message'].map((path) => ({ path, code: 'required' })))
    })

    it('answers a filled honeypot as success and keeps nothing', async () => {
      expect(await service().submitContactEnquiry({ ...CONTACT, honeypot: 'http://spam.example' })).toHaveProperty('id')
      expect(await service().submitContactEnquiry({ honeypot: 'x' })).toHaveProperty('id')
      expect(await stored()).toEqual({ contact: 0, training: 0, outbox: 0 })
    })
  })

  describe('training requests', () => {
    it('stores a request of either kind with its two e-mails', async () => {
      await service().submitTrainingRequest(TRAINING)
      await service().submitTrainingRequest({ ...TRAINING, kind: 'online' })
      const kinds = await testDb.db.kysely.selectFrom('training_requests').select('kind').orderBy('kind').execute()
      expect(kinds.map((row) => row.kind)).toEqual(['inhouse', 'online'])
      expect(await stored()).toEqual({ contact: 0, training: 2, outbox: 4 })
    })

    it('refuses with missing-fields, naming each missing field', async () => {
      const error = await rejection(service().submitTrainingRequest({ kind: 'online' }))
      expect(error.code).toBe('missing-fields')
      expect(error.issues).toEqual(['name', 'email', 'phone', 'organization', 'message'].map((path) => ({ path, code: 'required' })))
    })

    it.each([
      [{ kind: 'classroom' }, 'invalid-choice', 'kind'],
      ...INHERITED_NAMES.map((name): [Record<string, unknown>, string, string] => [{ kind: name }, 'invalid-choice', 'kind']),
      [{ email: 'sipho' }, 'invalid-email', 'email'],
      [{ organization: 'x'.repeat(201) }, 'too-long', 'organization'],
    ])('refuses %j', async (override, code, path) => {
      const error = await rejection(service().submitTrainingRequest({ ...TRAINING, ...override }))
      expect(error.code).toBe(code)
      expect(error.issues.map((issue) => issue.path)).toEqual([path])
    })

    it('answers a filled honeypot as success and keeps nothing', async () => {
      await service().submitTrainingRequest({ ...TRAINING, honeypot: 'filled' })
      expect(await stored()).toEqual({ contact: 0, training: 0, outbox: 0 })
    })
  })

  it.each([null, 'text', 7, [CONTACT]])('refuses a body that is not an object: %j', async (input) => {
    expect((await rejection(service().submitContactEnquiry(input))).code).toBe('invalid-request')
    expect((await rejection(service().submitTrainingRequest(input))).code).toBe('invalid-request')
  })
})
