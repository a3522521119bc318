import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEnquiryService } from '../enquiries/service.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { TEST_BACKENDS, fixedCatalog, openTestDatabase, startMailSink, testAuditRows, type TestDatabase } from '../test-support.ts'
import { addEnquiryNote, getEnquiry, listEnquiries, replyToEnquiry, updateEnquiry } from './enquiries-inbox.ts'
import { STAFF, testContext } from './fixtures.ts'

const COLLEAGUE = { id: 'staff-2', name: 'Pieter Botha' }

describe.each(TEST_BACKENDS)('the enquiries inbox on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  async function submitBoth() {
    let clock = Date.parse('2025-02-10T08:00:00Z')
    const service = createEnquiryService({ db: testDb.db, catalog: fixedCatalog(), now: () => new Date((clock += 60_000)) })
    const contact = await service.submitContactEnquiry({
      fullName: 'Naledi Dlamini',
      companyName: '',
      email: 'naledi@example.org',
      phone: '+27 82 000 0000',
      interest: 'Conference',
      message: 'Please send the programme.\nAnd the prices.',
    })
    const training = await service.submitTrainingRequest({
      kind: 'online',
      name: 'Sipho Mokoena',
      email: 'sipho@example.org',
      phone: '+27 11 000 0003',
      organization: 'City of Example',
      message: 'Board governance for 20 people',
    })
    await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
    return { contact: contact.id, training: training.id }
  }

  it('lists contact enquiries and training requests together, newest first, filtered by status', async () => {
    const { contact, training } = await submitBoth()
    const context = testContext(testDb.db)
    expect(await listEnquiries(context)).toEqual([
      {
        id: training,
        kind: 'online-training',
        name: 'Sipho Mokoena',
        email: 'sipho@example.org',
        organisation: 'City of Example',
        topic: 'Online training',
        receivedAt: '2025-02-10T08:02:00.000Z',
        status: 'new',
        assignee: null,
      },
      {
        id: contact,
        kind: 'contact',
        name: 'Naledi Dlamini',
        email: 'naledi@example.org',
        organisation: '',
        topic: 'Conference',
        receivedAt: '2025-02-10T08:01:00.000Z',
        status: 'new',
        assignee: null,
      },
    ])

    const change = await updateEnquiry(context, { enquiryId: contact, status: 'in-progress', assigneeId: COLLEAGUE.id, assigneeName: COLLEAGUE.name }, STAFF)
    expect(change).toEqual({ before: { status: 'new', assignee: null }, after: { status: 'in-progress', assignee: COLLEAGUE.name } })
    expect((await listEnquiries(context, { status: 'in-progress' })).map((entry) => [entry.id, entry.assignee])).toEqual([[contact, COLLEAGUE]])
    expect((await listEnquiries(context, { status: 'new' })).map((entry) => entry.id)).toEqual([training])
    await expect(updateEnquiry(context, { enquiryId: contact, status: 'done', assigneeId: '' }, STAFF)).rejects.toMatchObject({
      issues: [{ path: 'status', code: 'invalid-choice' }],
    })
    await expect(updateEnquiry(context, { enquiryId: 'no-such-id', status: 'closed', assigneeId: '' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
    expect((await testAuditRows(testDb.db)).map((row) => [row.action, row.before, row.after])).toEqual([
      ['enquiry-updated', { status: 'new', assignee: null }, { status: 'in-progress', assignee: COLLEAGUE.name }],
    ])
  })

  it('keeps the status a reply set when the assignee is saved from a page that still showed New', async () => {
    const { contact } = await submitBoth()
    const context = testContext(testDb.db)
    await replyToEnquiry(context, { enquiryId: contact, subject: '', text: 'Thanks, we will call you.' }, STAFF)
    expect((await getEnquiry(context, contact)).status).toBe('in-progress')

    // The status box still says New (the page was opened before the reply); only the assignee was changed.
    const change = await updateEnquiry(
      context,
      { enquiryId: contact, status: 'new', statusShown: 'new', assigneeId: COLLEAGUE.id, assigneeName: COLLEAGUE.name },
      STAFF,
    )
    expect(change.after).toEqual({ status: 'in-progress', assignee: COLLEAGUE.name })
    expect((await getEnquiry(context, contact)).status).toBe('in-progress')
    // Choosing another status than the page showed does change it.
    await updateEnquiry(context, { enquiryId: contact, status: 'closed', statusShown: 'new', assigneeId: COLLEAGUE.id, assigneeName: COLLEAGUE.name }, STAFF)
    expect((await getEnquiry(context, contact)).status).toBe('closed')
  })

  it('keeps internal notes, and e-mails a reply from the organiser’s address through the outbox, kept on the enquiry', async () => {
    const { contact, training } = await submitBoth()
    const context = { ...testContext(testDb.db), organiserEmail: 'events@organiser.example' }
    await addEnquiryNote(context, { enquiryId: contact, note: 'Called back, she wants the PFAS programme.' }, STAFF)
    await expect(addEnquiryNote(context, { enquiryId: contact, note: '   ' }, STAFF)).rejects.toMatchObject({ issues: [{ path: 'note', code: 'required' }] })
    await expect(replyToEnquiry(context, { enquiryId: contact, subject: '', text: '' }, STAFF)).rejects.toMatchObject({
      issues: [{ path: 'text', code: 'required' }],
    })

    const { sink, transport, stop } = await startMailSink({ from: 'Events <no-reply@example.com>' })
    try {
      await replyToEnquiry(
        context,
        { enquiryId: contact, subject: 'Your enquiry\r\nBcc: someone@evil.example', text: 'Dear Naledi, the programme is attached.\nRegards' },
        STAFF,
      )
      await replyToEnquiry(context, { enquiryId: training, subject: '', text: 'We can run it online in May.' }, { ...STAFF, ...COLLEAGUE })
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      expect(sink.received).toHaveLength(2)
      const reply = sink.received.find((mail) => mail.recipients.includes('naledi@example.org'))!
      expect(reply.envelopeFrom).toBe('events@organiser.example')
      expect(reply.parsed.from?.text).toBe('"Example Events" <events@organiser.example>')
      expect(reply.parsed.replyTo?.text).toBe('events@organiser.example')
      expect(reply.parsed.subject).toBe('Your enquiry Bcc: someone@evil.example')
      expect(reply.parsed.bcc).toBeUndefined()
      expect(reply.parsed.text).toContain('the programme is attached.\nRegards')
      // Staff greeted her themselves: no second greeting on top.
      expect(reply.parsed.text!.startsWith('Dear Naledi, the programme is attached.')).toBe(true)
      expect(reply.parsed.text!.match(/Dear/g)).toHaveLength(1)
      expect(reply.parsed.text).toContain('> Please send the programme.\n> And the prices.')
      const other = sink.received.find((mail) => mail.recipients.includes('sipho@example.org'))!
      expect(other.parsed.subject).toBe('Re: your training request to Example Events')
      expect(other.parsed.text!.startsWith('Dear Sipho Mokoena,\n\nWe can run it online in May.')).toBe(true)
    } finally {
      await stop()
    }

    const detail = await getEnquiry(context, contact)
    expect(detail).toMatchObject({ status: 'in-progress', phone: '+27 82 000 0000', message: 'Please send the programme.\nAnd the prices.' })
    expect(detail.activity.map(({ kind, author, subject, delivery }) => ({ kind, author, subject, delivery }))).toEqual([
      { kind: 'note', author: STAFF.name, subject: '', delivery: null },
      { kind: 'reply', author: STAFF.name, subject: 'Your enquiry Bcc: someone@evil.example', delivery: 'sent' },
    ])
    expect((await getEnquiry(context, training)).status).toBe('in-progress')
  })

  it('replies from the site’s contact address when no organiser address is configured', async () => {
    const { contact } = await submitBoth()
    const context = testContext(testDb.db)
    const { outboxMessageId } = await replyToEnquiry(context, { enquiryId: contact, subject: 'Hello', text: 'Thanks' }, STAFF)
    const row = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .select(['mail', 'topic', 'source_id'])
      .where('id', '=', outboxMessageId)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ topic: 'enquiry.reply', source_id: contact })
    expect(JSON.parse(row.mail)).toMatchObject({ from: '"Example Events" <info@example.com>', to: ['naledi@example.org'], replyTo: 'info@example.com' })
  })
})
