import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ValidationError } from '../errors.ts'
import { outgoingMailOf } from '../outbox/stored-mail.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { cancellationProposal, cancelRegistration } from '../cancellation/cancel.ts'
import { TEST_BACKENDS, openTestDatabase, startMailSink, testAuditRows, type TestDatabase } from '../test-support.ts'
import { register, MANAGER, STAFF, testContext } from './fixtures.ts'
import { changeDelegate, correctCompanyDetails } from './registration-changes.ts'
import { getRegistrationDetail } from './registration-detail.ts'

const THANDI = { name: 'Thandi Nkosi', position: 'Legal Adviser', email: 'thandi@acme.example.com' }
const PIETER = { name: 'Pieter van Wyk', position: 'Paralegal', email: 'pieter@acme.example.com' }
const NALEDI = { name: 'Naledi Khumalo', position: 'Senior Associate', email: 'naledi@acme.example.com' }

describe.each(TEST_BACKENDS)('registration changes on %s', (backend) => {
  let testDb: TestDatabase
  let reference: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[reference] = (await register(testDb.db, {})) as [string]
    await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  it('replaces a delegate, keeps the amounts and sends the new delegate their notice over SMTP', async () => {
    const { sink, transport, stop } = await startMailSink()
    try {
      const change = await changeDelegate(
        testContext(testDb.db),
        { reference, delegate: '2', name: ` ${NALEDI.name} `, position: NALEDI.position, email: NALEDI.email },
        STAFF,
      )
      expect(change).toEqual({ reference, before: PIETER, after: NALEDI, noticeQueued: true })

      const detail = await getRegistrationDetail(testContext(testDb.db), reference)
      expect(detail!.delegates).toEqual([
        { ...THANDI, attendance: 'venue', cancelled: false },
        // The one sent instead takes the place as it was, at the venue.
        { ...NALEDI, attendance: 'venue', cancelled: false },
      ])
      expect(detail!.amounts).toMatchObject({ subtotalCents: 1_798_000, vatCents: 269_700, totalCents: 2_067_700 })
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      expect(sink.received).toHaveLength(1)
      expect(sink.received[0]!.recipients).toEqual([NALEDI.email])
      expect(sink.received[0]!.parsed.text).toContain(`Dear ${NALEDI.name},`)
      expect(await testAuditRows(testDb.db)).toEqual([
        expect.objectContaining({
          action: 'registration-delegate-changed',
          subjectId: reference,
          before: { delegate: 2, ...PIETER },
          after: { delegate: 2, ...NALEDI },
        }),
      ])
    } finally {
      await stop()
    }
  })

  it('lists each e-mail as it was sent: the replaced delegate’s notice stays addressed to them', async () => {
    const { sink, transport, stop } = await startMailSink()
    try {
      // The registration's first e-mails go out now, through the outbox, and are recorded as sent.
      await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'pending' }).execute()
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      await changeDelegate(testContext(testDb.db), { reference, delegate: '2', ...NALEDI }, STAFF)
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      expect(sink.received.map((mail) => mail.recipients)).toContainEqual([PIETER.email])

      const emails = (await getRegistrationDetail(testContext(testDb.db), reference))!.emails
      const delegateNotices = emails
        .filter((email) => email.topic === 'registration.delegate')
        .map((email) => ({ record: email.record, to: email.to, subject: email.subject }))
        .sort((a, b) => a.to.join().localeCompare(b.to.join()))
      expect(delegateNotices).toEqual([
        { record: 'sent', to: [NALEDI.email], subject: expect.stringContaining('Legal Opinion Writing 2025') },
        { record: 'sent', to: [PIETER.email], subject: expect.stringContaining('Legal Opinion Writing 2025') },
        { record: 'sent', to: [THANDI.email], subject: expect.stringContaining('Legal Opinion Writing 2025') },
      ])
      const confirmation = emails.find((email) => email.topic === 'registration.registrant')!
      expect(confirmation).toMatchObject({ record: 'sent', to: ['bookings@acme.example.com'], attachments: ['event.ics', 'tax-invoice-INV-000001.pdf'] })

      // What was sent does not follow later changes: the registrant's address corrected, the confirmation stays as sent.
      await correctCompanyDetails(
        testContext(testDb.db),
        {
          reference,
          companyName: 'Acme Legal Services',
          address: '12 Main Road',
          email: 'accounts@acme.example.com',
          tel: '+27 11 555 0100',
          vatNumber: '4123456789',
        },
        MANAGER,
      )
      const after = (await getRegistrationDetail(testContext(testDb.db), reference))!.emails.find((email) => email.id === confirmation.id)!
      expect(after.to).toEqual(['bookings@acme.example.com'])
    } finally {
      await stop()
    }
  })

  it('withdraws a notice to the replaced delegate not sent yet, which would otherwise reach their successor', async () => {
    const { sink, transport, stop } = await startMailSink()
    try {
      await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'pending' }).execute()
      await changeDelegate(testContext(testDb.db), { reference, delegate: '2', ...NALEDI }, STAFF)
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const delegateNotices = sink.received.filter((mail) => mail.parsed.subject?.startsWith('You are registered')).map((mail) => mail.recipients)
      expect(delegateNotices.sort()).toEqual([[NALEDI.email], [THANDI.email]])
      expect(sink.received.some((mail) => mail.recipients.includes(PIETER.email))).toBe(false)
    } finally {
      await stop()
    }
  })

  it('says an e-mail sent before records were kept is not recorded, rather than rendering it from today’s data', async () => {
    await changeDelegate(testContext(testDb.db), { reference, delegate: '2', ...NALEDI }, STAFF)
    const emails = (await getRegistrationDetail(testContext(testDb.db), reference))!.emails
    const notices = emails.filter((email) => email.topic === 'registration.delegate')
    // The two sent at registration name no one (Pieter's would render as Naledi's today); Naledi's waits to be sent.
    expect(notices.filter((email) => email.record === 'unrecorded').map(({ to, subject }) => ({ to, subject }))).toEqual([
      { to: [], subject: '' },
      { to: [], subject: '' },
    ])
    expect(notices.filter((email) => email.record === 'to-send').map((email) => email.to)).toEqual([[NALEDI.email]])
  })

  it('queues no notice when only the name or position of a delegate is corrected', async () => {
    const change = await changeDelegate(testContext(testDb.db), { reference, delegate: 1, ...THANDI, position: 'Head of Legal' }, STAFF)
    expect(change.noticeQueued).toBe(false)
    expect(await testDb.db.kysely.selectFrom('outbox_messages').select('id').where('status', '=', 'pending').execute()).toEqual([])
  })

  it('refuses another person once the event has started (a name may still be corrected), and a delegate that does not exist', async () => {
    const started = { ...testContext(testDb.db), siteNow: () => new Date('2025-07-03T08:30:00+02:00') }
    await expect(changeDelegate(started, { reference, delegate: 1, ...NALEDI }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'event-started', details: expect.objectContaining({ allowed: 'name-and-position' }) }),
    )
    expect(await changeDelegate(started, { reference, delegate: 1, ...THANDI, name: 'Thandiwe Nkosi' }, STAFF)).toMatchObject({ noticeQueued: false })
    await expect(
      correctCompanyDetails(started, { reference, companyName: 'X', address: 'Y', email: 'x@example.com', tel: '011 555 0100', vatNumber: '' }, MANAGER),
    ).rejects.toMatchObject({ code: 'event-started' })
    await expect(changeDelegate(testContext(testDb.db), { reference, delegate: 3, ...NALEDI }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'not-found', details: expect.objectContaining({ missing: 'delegate', reference, number: 3 }) }),
    )
  })

  it('refuses to replace a cancelled delegate, changing nothing', async () => {
    const context = testContext(testDb.db)
    const { delegates } = await cancellationProposal(context, reference)
    await cancelRegistration(context, { reference, delegateIds: [delegates[1]!.id] }, MANAGER)
    await expect(changeDelegate(context, { reference, delegate: 2, ...NALEDI }, STAFF)).rejects.toMatchObject({ code: 'delegate-not-attending' })
    const names = await testDb.db.kysely.selectFrom('registration_delegates').select('name').orderBy('ordinal').execute()
    expect(names.map((row) => row.name)).toEqual([THANDI.name, PIETER.name])
  })

  it('names every field that is missing or wrong', async () => {
    const refused = await changeDelegate(
      testContext(testDb.db),
      { reference, delegate: 1, name: '', position: 'Partner', email: 'not an address' },
      STAFF,
    ).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ValidationError)
    expect((refused as ValidationError).issues).toEqual([
      { path: 'name', code: 'required' },
      { path: 'email', code: 'invalid-email' },
    ])
  })

  it("corrects the company details, answering before and after, and the registrant's e-mails say the new ones", async () => {
    const corrected = {
      companyName: 'Acme Legal Services (Pty) Ltd',
      address: '14 Main Road\nRosebank',
      email: 'accounts@acme.example.com',
      tel: '+27 11 555 0199',
      vatNumber: '4999999999',
      purchaseOrderNumber: 'PO 88',
    }
    // Correcting the invoice's addressee is a manager's: a staff actor is refused by the command itself.
    await expect(correctCompanyDetails(testContext(testDb.db), { reference, ...corrected }, STAFF)).rejects.toMatchObject({ code: 'role-required' })
    const change = await correctCompanyDetails(testContext(testDb.db), { reference, ...corrected }, MANAGER)
    expect(change).toEqual({
      reference,
      before: {
        companyName: 'Acme Legal Services',
        address: '12 Main Road\nRosebank\nJohannesburg',
        email: 'bookings@acme.example.com',
        tel: '+27 11 555 0100',
        vatNumber: '4123456789',
        purchaseOrderNumber: '',
      },
      after: corrected,
    })
    const detail = await getRegistrationDetail(testContext(testDb.db), reference)
    expect(detail!.company).toEqual({
      name: corrected.companyName,
      address: corrected.address,
      email: corrected.email,
      tel: corrected.tel,
      vatNumber: corrected.vatNumber,
      purchaseOrderNumber: 'PO 88',
    })
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', reference).executeTakeFirstOrThrow()
    const confirmation = await outgoingMailOf(testDb.db, { source_id: id, mail: JSON.stringify({ template: 'registration.registrant' }) })
    expect(confirmation.to).toEqual(['accounts@acme.example.com'])
    expect(confirmation.text).toContain('Thank you for registering Acme Legal Services (Pty) Ltd')
  })
})
