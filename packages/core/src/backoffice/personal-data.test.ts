import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEnquiryService } from '../enquiries/service.ts'
import { createRegistration } from '../registration/commands.ts'
import {
  TEST_BACKENDS,
  fixedCatalog,
  openTestDatabase,
  registrationInput,
  startMailSink,
  testAuditRows,
  testSiteLinks,
  SITE_NOW,
  type TestDatabase,
} from '../test-support.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { changeDelegate } from './registration-changes.ts'
import { getRegistrationDetail, registrationInvoicePdf } from './registration-detail.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { outgoingMailOf } from '../outbox/stored-mail.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { resendRegistrationMail } from './emails.ts'
import { addEnquiryNote } from './enquiries-inbox.ts'
import { MANAGER, STAFF, testContext } from './fixtures.ts'
import { anonymiseExpiredPersonalData, erasePersonalData, findPersonalData, startRetentionJob, type RetentionResult } from './personal-data.ts'

const THANDI = 'thandi@acme.example.com'
const REGISTRANT = 'bookings@acme.example.com'

describe.each(TEST_BACKENDS)('personal data on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  /** The back office a month after the seeded registration's event (3 July 2025). */
  function afterTheEvent() {
    return { ...testContext(testDb.db), siteNow: () => new Date('2025-08-04T08:00:00+02:00') }
  }

  /** A registration naming Thandi as a delegate, her own contact enquiry (with a note) and someone else's request. */
  async function seed() {
    const { receipt } = await createRegistration(
      { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW, now: () => SITE_NOW },
      registrationInput(),
    )
    const enquiries = createEnquiryService({ db: testDb.db, catalog: fixedCatalog(), now: () => new Date('2025-02-10T08:00:00Z') })
    const enquiry = await enquiries.submitContactEnquiry({
      fullName: 'Thandi Nkosi',
      email: 'Thandi@Acme.example.com',
      phone: '+27 82 000 0000',
      interest: 'Workshop',
      message: 'Is there parking?',
    })
    await enquiries.submitTrainingRequest({
      kind: 'online',
      name: 'Sipho Mokoena',
      email: 'sipho@example.org',
      phone: '+27 11 000 0003',
      organization: 'City',
      message: 'Governance',
    })
    await addEnquiryNote(testContext(testDb.db), { enquiryId: enquiry.id, note: 'She asked about parking.' }, STAFF)
    return { reference: receipt.reference, enquiryId: enquiry.id }
  }

  it('finds everything held about an address, in any case: registrations as delegate, enquiries with notes, e-mails', async () => {
    const { reference, enquiryId } = await seed()
    const report = await findPersonalData(testContext(testDb.db), ' THANDI@acme.example.com ')
    expect(report.email).toBe(THANDI)
    expect(report.registrations).toEqual([
      expect.objectContaining({
        reference,
        roles: ['delegate'],
        event: 'Legal Opinion Writing 2025',
        // Her own entry only: neither the co-delegate's nor the company's contact details, which are the registrant's.
        company: expect.objectContaining({ name: 'Acme Legal Services', email: '', tel: '' }),
        delegates: [{ name: 'Thandi Nkosi', position: 'Legal Adviser', email: THANDI }],
        invoice: { number: 'INV-000001', issuedAt: SITE_NOW.toISOString() },
        keptUntil: '2030-03-01',
      }),
    ])
    expect(report.enquiries).toEqual([
      expect.objectContaining({
        id: enquiryId,
        kind: 'contact',
        name: 'Thandi Nkosi',
        message: 'Is there parking?',
        thread: [expect.objectContaining({ kind: 'note', body: 'She asked about parking.' })],
      }),
    ])
    // The e-mails addressed to her: not the co-delegate's notice, the registrant's confirmation or the organiser's copies.
    expect(report.emails.map((email) => [email.topic, email.to])).toEqual([
      ['contact.acknowledgement', ['Thandi@Acme.example.com']],
      ['registration.delegate', [THANDI]],
    ])
    expect(JSON.stringify(report)).not.toMatch(/pieter|Pieter|Paralegal|bookings@/)

    const registrant = await findPersonalData(testContext(testDb.db), REGISTRANT)
    expect(registrant.registrations).toEqual([
      expect.objectContaining({ roles: ['registrant'], delegates: [], company: expect.objectContaining({ email: REGISTRANT }) }),
    ])
    expect(registrant.emails.map((email) => email.topic)).toEqual(['registration.registrant'])
    expect(report.emails.find((email) => email.topic === 'contact.acknowledgement')).toMatchObject({ to: ['Thandi@Acme.example.com'], status: 'pending' })

    await expect(findPersonalData(testContext(testDb.db), 'not an address')).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'email-address' }) }),
    )
    expect(await findPersonalData(testContext(testDb.db), 'nobody@example.com')).toMatchObject({ registrations: [], enquiries: [], emails: [] })
  })

  it('erases the enquiries and their e-mails, and leaves whole a registration for an event not yet started', async () => {
    const { reference } = await seed()
    const context = testContext(testDb.db)
    expect(await erasePersonalData(context, { email: THANDI, confirm: true }, MANAGER)).toEqual({
      enquiriesAnonymised: 1,
      waitingListEntriesAnonymised: 0,
      emailsDeleted: 2,
      registrationsErased: [],
      sponsorshipDealsErased: [],
      registrationsActive: [{ reference, event: 'Legal Opinion Writing 2025', eventStart: '2025-07-03T06:30:00Z' }],
    })
    const after = await findPersonalData(context, THANDI)
    expect(after.enquiries).toEqual([])
    expect(after.registrations).toEqual([
      expect.objectContaining({ reference, delegates: expect.arrayContaining([expect.objectContaining({ name: 'Thandi Nkosi', email: THANDI })]) }),
    ])
    const anonymised = await testDb.db.kysely.selectFrom('contact_enquiries').selectAll().executeTakeFirstOrThrow()
    expect(anonymised).toMatchObject({ full_name: '[anonymised]', email: '', phone: '', message: '[anonymised]', status: 'closed' })
    expect(await testDb.db.kysely.selectFrom('enquiry_activity').select('body').execute()).toEqual([{ body: '[anonymised]' }])
    expect(await testDb.db.kysely.selectFrom('training_requests').select('name').execute()).toEqual([{ name: 'Sipho Mokoena' }])
  })

  it('erases as a manager’s staff command: confirmed, audited in the same transaction, and nothing erased when the audit fails', async () => {
    await seed()
    const context = testContext(testDb.db)
    await expect(erasePersonalData(context, { email: THANDI, confirm: true }, STAFF)).rejects.toMatchObject({ code: 'role-required' })
    await expect(erasePersonalData(context, { email: THANDI }, MANAGER)).rejects.toMatchObject({ issues: [{ path: 'confirm', code: 'not-accepted' }] })
    await expect(erasePersonalData(context, { email: 'not an address', confirm: 'on' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'email', code: 'invalid-email' }],
    })
    const failingAudit = { ...context, audit: async () => Promise.reject(new Error('audit log unavailable')) }
    await expect(erasePersonalData(failingAudit, { email: THANDI, confirm: true }, MANAGER)).rejects.toThrow('audit log unavailable')
    expect((await findPersonalData(context, THANDI)).enquiries).toHaveLength(1)
    expect(await testAuditRows(testDb.db)).toEqual([expect.objectContaining({ action: 'enquiry-note-added' })])

    const erased = await erasePersonalData(context, { email: ' Thandi@Acme.example.com ', confirm: 'on' }, MANAGER)
    expect(erased.enquiriesAnonymised).toBe(1)
    expect((await testAuditRows(testDb.db)).at(-1)).toMatchObject({
      action: 'personal-data-erased',
      subjectType: 'data-subject',
      subjectId: THANDI,
      actorId: MANAGER.id,
      ipAddress: MANAGER.ipAddress,
      before: { registrations: 1, enquiries: 1, emails: 2 },
      after: erased,
    })
  })

  it('finds and erases the notice sent to a delegate who was since replaced, which their registration no longer names', async () => {
    const { reference } = await seed()
    const pieter = 'pieter@acme.example.com'
    const { transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      await changeDelegate(
        testContext(testDb.db),
        { reference, delegate: 2, name: 'Naledi Khumalo', position: 'Associate', email: 'naledi@acme.example.com' },
        STAFF,
      )
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
    } finally {
      await stop()
    }
    const sentToPieter = async () => (await getRegistrationDetail(testContext(testDb.db), reference))!.emails.filter((mail) => mail.to.includes(pieter))
    expect(await sentToPieter()).toHaveLength(1)
    expect((await findPersonalData(testContext(testDb.db), pieter)).emails).toEqual([
      expect.objectContaining({ topic: 'registration.delegate', to: [pieter], status: 'sent' }),
    ])

    expect(await erasePersonalData(testContext(testDb.db), { email: pieter, confirm: true }, MANAGER)).toMatchObject({
      emailsDeleted: 1,
      registrationsErased: [],
      sponsorshipDealsErased: [],
      registrationsActive: [],
    })
    expect(await sentToPieter()).toEqual([])
    expect(JSON.stringify(await testDb.db.kysely.selectFrom('outbox_messages').selectAll().execute())).not.toContain(pieter)
  })

  it('erases a delegate who has cancelled before the event, while the others still attend', async () => {
    const { reference } = await seed()
    const context = testContext(testDb.db)
    const thandi = await testDb.db.kysely.selectFrom('registration_delegates').select('id').where('email', '=', THANDI).executeTakeFirstOrThrow()
    await cancelRegistration(context, { reference, delegateIds: [thandi.id] }, MANAGER)
    expect(await erasePersonalData(context, { email: THANDI, confirm: true }, MANAGER)).toMatchObject({
      registrationsErased: [{ reference, roles: ['delegate'], keptUntil: '2030-03-01' }],
      sponsorshipDealsErased: [],
      registrationsActive: [],
    })
    expect(await testDb.db.kysely.selectFrom('registration_delegates').select('name').orderBy('ordinal').execute()).toEqual([
      { name: '[anonymised]' },
      { name: 'Pieter van Wyk' },
    ])
  })

  /** Every e-mail the outbox still holds, as it would be sent now. */
  async function outboxMails() {
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['topic', 'status', 'mail', 'source_id']).execute()
    return Promise.all(rows.map(async (row) => ({ topic: row.topic, status: row.status, mail: await outgoingMailOf(testDb.db, row) })))
  }

  /** The tax invoice as the back office downloads it (its PDF drawn and stored on the first download) and its data. */
  async function invoiceDocument(reference: string) {
    const download = await registrationInvoicePdf(testContext(testDb.db), reference)
    const stored = await testDb.db.kysely.selectFrom('invoices').select(['data_json', 'pdf_base64']).executeTakeFirstOrThrow()
    return { stored, pdf: Buffer.from(download!.pdf).toString('base64') }
  }

  it('erases a delegate from a past registration: their row, the stored mail data and their e-mails; the invoice stays as issued', async () => {
    const { reference } = await seed()
    const context = afterTheEvent()
    const invoiceBefore = await invoiceDocument(reference)
    expect(invoiceBefore.pdf.length).toBeGreaterThan(1000)

    expect(await erasePersonalData(context, { email: THANDI, confirm: true }, MANAGER)).toEqual({
      enquiriesAnonymised: 1,
      waitingListEntriesAnonymised: 0,
      emailsDeleted: 3,
      registrationsErased: [{ reference, roles: ['delegate'], keptUntil: '2030-03-01' }],
      sponsorshipDealsErased: [],
      registrationsActive: [],
    })
    expect(await testDb.db.kysely.selectFrom('registration_delegates').select(['name', 'position', 'email']).orderBy('ordinal').execute()).toEqual([
      { name: '[anonymised]', position: '', email: '' },
      { name: 'Pieter van Wyk', position: 'Paralegal', email: 'pieter@acme.example.com' },
    ])
    expect(await testDb.db.kysely.selectFrom('registrations').select(['email', 'tel', 'company_name']).executeTakeFirstOrThrow()).toEqual({
      email: 'bookings@acme.example.com',
      tel: '+27 11 555 0100',
      company_name: 'Acme Legal Services',
    })
    expect(await invoiceDocument(reference)).toEqual(invoiceBefore)

    const mails = await outboxMails()
    expect(mails.map((mail) => mail.topic).sort()).toEqual([
      'registration.delegate',
      'registration.organiser',
      'registration.registrant',
      'training.acknowledgement',
      'training.organiser',
    ])
    for (const { mail } of mails) {
      expect(mail.to).not.toContain(THANDI)
      expect(`${mail.text}${mail.html}`).not.toMatch(/thandi/i)
    }
    const resent = await resendRegistrationMail(context, { reference: reference, mail: 'confirmation' }, STAFF)
    expect(resent.to).toEqual(['bookings@acme.example.com'])
    const confirmation = (await outboxMails()).filter((mail) => mail.topic === 'registration.registrant')
    expect(confirmation).toHaveLength(2)
    for (const { mail } of confirmation) {
      expect(mail.text).toContain('Pieter van Wyk')
      expect(mail.text).not.toMatch(/thandi/i)
    }
    expect((await findPersonalData(context, THANDI)).registrations).toEqual([])
  })

  it("erases the registrant's e-mail and telephone from a past registration, keeping the company the invoice is made out to", async () => {
    const { reference } = await seed()
    const context = afterTheEvent()
    const invoiceBefore = await invoiceDocument(reference)

    expect(await erasePersonalData(context, { email: REGISTRANT, confirm: true }, MANAGER)).toMatchObject({
      emailsDeleted: 1,
      registrationsErased: [{ reference, roles: ['registrant'], keptUntil: '2030-03-01' }],
    })
    expect(
      await testDb.db.kysely.selectFrom('registrations').select(['email', 'tel', 'company_name', 'address', 'vat_number']).executeTakeFirstOrThrow(),
    ).toEqual({
      email: '',
      tel: '',
      company_name: 'Acme Legal Services',
      address: '12 Main Road\nRosebank\nJohannesburg',
      vat_number: '4123456789',
    })
    expect(await testDb.db.kysely.selectFrom('registration_delegates').select('name').orderBy('ordinal').execute()).toEqual([
      { name: 'Thandi Nkosi' },
      { name: 'Pieter van Wyk' },
    ])
    expect(await invoiceDocument(reference)).toEqual(invoiceBefore)

    const mails = await outboxMails()
    expect(mails.map((mail) => mail.topic).sort()).toEqual([
      'contact.acknowledgement',
      'contact.organiser',
      'registration.delegate',
      'registration.delegate',
      'registration.organiser',
      'training.acknowledgement',
      'training.organiser',
    ])
    for (const { mail } of mails) {
      expect(mail.to).not.toContain(REGISTRANT)
      expect(`${mail.text}${mail.html}${mail.replyTo ?? ''}`).not.toContain(REGISTRANT)
      expect(mail.text).not.toContain('+27 11 555 0100')
    }
    await recordBankTransfer(context, { reference, amount: '20677.00', receivedOn: '2025-08-01', bankReference: 'FNB late payment' }, STAFF)
    expect(await testDb.db.kysely.selectFrom('registrations').select('status').executeTakeFirstOrThrow()).toEqual({ status: 'paid' })
    expect(await testDb.db.kysely.selectFrom('outbox_messages').select('id').where('topic', '=', 'payment.receipt').execute()).toEqual([])
    await expect(resendRegistrationMail(context, { reference: reference, mail: 'confirmation' }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'personal-data-erased' }),
    )
  })

  it('anonymises enquiries after the retention period and registrations five years after their invoice, once', async () => {
    const { reference } = await seed()
    const at = (iso: string) => testContext(testDb.db, () => new Date(iso))

    expect(await anonymiseExpiredPersonalData(at('2027-02-09T08:00:00Z'), { enquiryRetentionMonths: 24 })).toEqual({
      enquiriesAnonymised: 0,
      registrationsAnonymised: 0,
    })
    expect(await anonymiseExpiredPersonalData(at('2027-02-11T08:00:00Z'), { enquiryRetentionMonths: 24 })).toEqual({
      enquiriesAnonymised: 2,
      registrationsAnonymised: 0,
    })
    expect(await testDb.db.kysely.selectFrom('training_requests').select('name').execute()).toEqual([{ name: '[anonymised]' }])
    expect(await anonymiseExpiredPersonalData(at('2030-02-28T08:00:00Z'), { enquiryRetentionMonths: 24 })).toEqual({
      enquiriesAnonymised: 0,
      registrationsAnonymised: 0,
    })

    expect(await anonymiseExpiredPersonalData(at('2030-03-02T08:00:00Z'), { enquiryRetentionMonths: 24 })).toEqual({
      enquiriesAnonymised: 0,
      registrationsAnonymised: 1,
    })
    const registration = await testDb.db.kysely.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow()
    expect(registration).toMatchObject({ company_name: '[anonymised]', address: '', email: '', tel: '', vat_number: '', total_cents: 2_067_700 })
    expect(await testDb.db.kysely.selectFrom('registration_delegates').select(['name', 'email']).execute()).toEqual([
      { name: '[anonymised]', email: '' },
      { name: '[anonymised]', email: '' },
    ])
    const invoice = await testDb.db.kysely.selectFrom('invoices').select(['data_json', 'pdf_base64', 'number']).executeTakeFirstOrThrow()
    const data = JSON.parse(invoice.data_json!) as { recipient: unknown; lines: Array<{ details: string[] }>; totalCents: number }
    expect(data.recipient).toEqual({ name: '[anonymised]', addressLines: [], vatNumber: '' })
    expect(data.lines[0]!.details.join(' ')).not.toContain('Thandi')
    expect(data.lines[0]!.details.length).toBeGreaterThan(0)
    expect(data.totalCents).toBe(2_067_700)
    expect(invoice.pdf_base64).toBe('')
    expect(await testDb.db.kysely.selectFrom('outbox_messages').select('id').execute()).toEqual([])
    expect((await findPersonalData(at('2030-03-02T08:00:00Z'), THANDI)).registrations).toEqual([])
    expect(await anonymiseExpiredPersonalData(at('2030-03-03T08:00:00Z'), { enquiryRetentionMonths: 24 })).toEqual({
      enquiriesAnonymised: 0,
      registrationsAnonymised: 0,
    })
  })

  it('runs the retention job soon after the start and then at every interval, until stopped', async () => {
    await seed()
    const results: RetentionResult[] = []
    let awaited = { count: 0, reached: () => {} }
    const resultsReach = (count: number) =>
      new Promise<void>((resolve) => {
        awaited = { count, reached: resolve }
        if (results.length >= count) resolve()
      })
    let runsStarted = 0
    // The job's timers are faked, so the test decides when each run is due and can tell that none starts after stop.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    try {
      const job = startRetentionJob({
        context: {
          db: testDb.db,
          now: () => {
            runsStarted++
            return new Date('2027-06-01T08:00:00Z')
          },
        },
        enquiryRetentionMonths: 24,
        onResult: (result) => {
          results.push(result)
          if (results.length >= awaited.count) awaited.reached()
        },
        onError: (error) => {
          throw error
        },
        intervalMs: 300,
      })
      await vi.advanceTimersByTimeAsync(300)
      await resultsReach(1)
      // The intervals at 600 and 900 ms, then the first run due 1 s after the start.
      await vi.advanceTimersByTimeAsync(700)
      await resultsReach(4)
      job.stop()
      vi.advanceTimersByTime(10 * 300)
      expect(runsStarted).toBe(4)
      expect(results).toHaveLength(4)
      expect(results[0]).toEqual({ enquiriesAnonymised: 2, registrationsAnonymised: 0 })
      expect(results.slice(1).every((result) => result.enquiriesAnonymised === 0)).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })
})
