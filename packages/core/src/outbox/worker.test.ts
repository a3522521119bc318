import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AddressObject } from 'mailparser'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEnquiryService } from '../enquiries/service.ts'
import { createMailTransport, type MailTransport } from '../mail/transport.ts'
import { createRegistration } from '../registration/commands.ts'
import type { RegistrationContext } from '../registration/model.ts'
import {
  SITE_NOW,
  TEST_BACKENDS,
  fixedCatalog,
  openTestDatabase,
  registrationInput,
  startMailSink,
  temporaryDirectory,
  testSiteLinks,
  useMailSink,
  type ReceivedMail,
  type TestDatabase,
} from '../test-support.ts'
import { DEFAULT_LEASE_MS, UNCERTAIN_SEND, deliverDueMessages, retryDelayMs, startOutboxWorker } from './worker.ts'

const CLAIM_THEN_DIE = fileURLToPath(new URL('./claim-then-die.fixture.ts', import.meta.url))

function runUntilKilled(script: string, args: string[]): Promise<{ stdout: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (_code, signal) => resolve({ stdout, signal }))
  })
}

const FROM = 'Example Events <events@example.com>'
const ORGANISER = 'organiser@example.com'
const links = testSiteLinks()

describe('retryDelayMs', () => {
  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [6, 160_000],
    [7, 300_000],
    [50, 300_000],
  ])('after %i failed attempts waits %i ms', (attempts, delay) => {
    expect(retryDelayMs(attempts)).toBe(delay)
  })
})

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value]
  return list.flatMap((entry) => entry.value.map((address) => address.address ?? ''))
}

function mailTo(received: ReceivedMail[], address: string): ReceivedMail[] {
  return received.filter((mail) => mail.recipients.includes(address))
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.each(TEST_BACKENDS)('outbox delivery on %s', (backend) => {
  let testDb: TestDatabase
  const { sink, transport } = useMailSink({ from: FROM })
  let clock: Date
  const quiet = () => undefined

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    clock = new Date('2025-03-01T10:00:00Z')
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const registrations = (): RegistrationContext => ({
    db: testDb.db,
    catalog: fixedCatalog(),
    links,
    organiserEmail: ORGANISER,
    siteNow: () => SITE_NOW,
    now: () => clock,
  })
  const enquiries = () => createEnquiryService({ db: testDb.db, catalog: fixedCatalog(), organiserEmail: ORGANISER, now: () => clock })
  const deliver = () => deliverDueMessages({ db: testDb.db, transport: transport(), now: () => clock, log: quiet })

  it('sends the organiser, the registrant and each delegate their e-mail', async () => {
    const { receipt } = await createRegistration(registrations(), registrationInput())
    expect(await deliver()).toEqual({ sent: 4, retrying: 0, failed: 0 })

    expect(sink().received).toHaveLength(4)
    const organiser = mailTo(sink().received, ORGANISER)
    expect(organiser).toHaveLength(1)
    const organiserMail = organiser[0]!.parsed
    expect(organiserMail.subject).toBe(`Legal Opinion Delegate Registration ${receipt.reference}`)
    expect(addresses(organiserMail.replyTo)).toEqual(['bookings@acme.example.com'])
    expect(addresses(organiserMail.from)).toEqual(['events@example.com'])
    for (const value of [
      'LOW2025',
      'Acme Legal Services',
      'Rosebank',
      'bookings@acme.example.com',
      '+27 11 555 0100',
      '4123456789',
      'Thandi Nkosi, Legal Adviser <thandi@acme.example.com>',
      'Pieter van Wyk, Paralegal <pieter@acme.example.com>',
      'Venue',
      'Bank Transfer',
      'R 20 677.00',
    ]) {
      expect(organiserMail.text).toContain(value)
    }
    expect(organiserMail.html).toContain('Thandi Nkosi, Legal Adviser &lt;thandi@acme.example.com&gt;')

    const [registrant] = mailTo(sink().received, 'bookings@acme.example.com')
    const confirmation = registrant!.parsed
    expect(confirmation.subject).toBe(`Registration ${receipt.reference}: Legal Opinion Writing 2025`)
    for (const value of [
      receipt.reference,
      'Legal Opinion Writing 2025',
      '3–4 July 2025, 08:30 – 16:00 (SAST)',
      'Indaba Hotel, William Nicol Drive',
      'Thandi Nkosi',
      'Pieter van Wyk',
      'Venue',
      'R 20 677.00',
      'incl. 15% VAT',
      'Placeholder Bank',
      'Payment reference: ' + receipt.reference,
      'within 5 days',
      links.registrationStatus(receipt),
    ]) {
      expect(confirmation.text).toContain(value)
    }
    expect(confirmation.html).toContain(`href="${links.registrationStatus(receipt)}"`)
    const calendar = confirmation.attachments.find((attachment) => attachment.contentType === 'text/calendar')
    expect(calendar?.contentType).toBe('text/calendar')
    expect(calendar?.filename).toBe('event.ics')
    const ics = calendar!.content.toString('utf8')
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Africa/Johannesburg')
    // One event a day, each with that day's hours.
    expect(ics).toContain('DTSTART;TZID=Africa/Johannesburg:20250703T083000\r\nDTEND;TZID=Africa/Johannesburg:20250703T160000')
    expect(ics).toContain('DTSTART;TZID=Africa/Johannesburg:20250704T083000\r\nDTEND;TZID=Africa/Johannesburg:20250704T160000')
    expect(ics).toContain('SUMMARY:Legal Opinion Writing 2025 (day 1 of 2)')
    expect(ics).toContain('LOCATION:Indaba Hotel\\, William Nicol Drive')
    expect(ics).toContain('URL;VALUE=URI:https://events.example.com/workshop/legalOpinion')

    for (const delegate of ['thandi@acme.example.com', 'pieter@acme.example.com']) {
      const notices = mailTo(sink().received, delegate)
      expect(notices).toHaveLength(1)
      const notice = notices[0]!.parsed
      expect(notice.subject).toBe('You are registered for Legal Opinion Writing 2025')
      expect(notice.text).toContain(`reference ${receipt.reference}`)
      expect(notice.text).toContain(links.privacyNotice())
      expect(notice.text).not.toContain(links.registrationStatus(receipt))
      // The pass's QR code is shown inline, not attached as a file.
      expect(notice.attachments.filter((attachment) => attachment.contentDisposition !== 'inline').map((attachment) => attachment.filename)).toEqual([
        'event.ics',
      ])
      expect(notice.attachments.filter((attachment) => attachment.contentDisposition === 'inline').map((attachment) => attachment.contentType)).toEqual([
        'image/png',
      ])
    }

    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['id', 'status', 'sent_at']).execute()
    expect(rows.every((row) => row.status === 'sent' && row.sent_at !== null)).toBe(true)
    expect(new Set(sink().received.map((mail) => mail.parsed.messageId))).toEqual(new Set(rows.map((row) => `<outbox-${row.id}@example.com>`)))
  })

  it('tells online delegates how they will join: no venue, no door pass, an online calendar entry', async () => {
    await createRegistration(registrations(), registrationInput({ attendanceOption: 'online' }))
    await deliver()
    for (const address of ['bookings@acme.example.com', 'thandi@acme.example.com']) {
      const [mail] = mailTo(sink().received, address)
      const text = mail!.parsed.text ?? ''
      expect(text).toContain('Online: we e-mail each delegate their own joining link before the event starts')
      expect(text).not.toContain('Indaba Hotel')
      expect(text).not.toMatch(/pass/i)
      expect(mail!.parsed.attachments.filter((attachment) => attachment.contentType === 'image/png')).toHaveLength(0)
      const ics = mail!.parsed.attachments.find((attachment) => attachment.filename === 'event.ics')!.content.toString('utf8')
      expect(ics).toContain('LOCATION:Online (joining link by e-mail)')
      expect(ics).not.toContain('Indaba Hotel')
    }
  })

  it('tells card registrants where to pay', async () => {
    const { receipt } = await createRegistration(
      registrations(),
      registrationInput({ paymentMethod: 'Credit/Debit Card', delegates: [{ name: 'A B', position: 'C', email: 'bookings@acme.example.com' }] }),
    )
    await deliver()
    // The only delegate is the registrant, who gets the full confirmation rather than a second notice.
    expect(sink().received).toHaveLength(2)
    const [confirmation] = mailTo(sink().received, 'bookings@acme.example.com')
    expect(confirmation!.parsed.text).toContain(links.registrationPayment(receipt))
    expect(confirmation!.parsed.text).not.toContain('Placeholder Bank')
  })

  it('keeps visitor input out of the headers', async () => {
    const injection = 'Evil\r\nBcc: attacker@evil.example\r\nSubject: Free money'
    await createRegistration(
      registrations(),
      registrationInput({
        companyName: injection,
        delegates: [{ name: injection, position: injection, email: 'thandi@acme.example.com' }],
      }),
    )
    await expect(createRegistration(registrations(), registrationInput({ email: 'victim@example.com\r\nBcc: attacker@evil.example' }))).rejects.toMatchObject({
      code: 'invalid-email',
    })
    await enquiries().submitContactEnquiry({
      fullName: injection,
      email: 'visitor@example.com',
      phone: '012 555 0100',
      interest: 'Conference',
      message: `Hello\r\nBcc: attacker@evil.example`,
    })
    await deliver()

    expect(sink().received.length).toBeGreaterThan(0)
    for (const mail of sink().received) {
      expect(mail.recipients).not.toContain('attacker@evil.example')
      const headers = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'))
      expect(headers).not.toMatch(/^bcc:/im)
      expect(headers).not.toContain('attacker@evil.example')
      expect(headers.match(/^subject:/gim)).toHaveLength(1)
      expect(mail.parsed.subject).not.toContain('Free money')
    }
  })

  it('sends enquiries and training requests to the organiser with the sender as reply-to, and acknowledges them', async () => {
    await enquiries().submitContactEnquiry({
      fullName: 'Naledi Dlamini',
      companyName: 'Dlamini Holdings',
      email: 'naledi@example.org',
      phone: '+27 82 000 0000',
      interest: 'Sponsership',
      message: 'We would like to sponsor.\nPlease call.',
    })
    await enquiries().submitTrainingRequest({
      kind: 'online',
      name: 'Sipho Mokoena',
      email: 'sipho@example.org',
      phone: '+27 11 000 0003',
      organization: 'City of Example',
      message: 'Governance training',
    })
    expect(await deliver()).toEqual({ sent: 4, retrying: 0, failed: 0 })

    const toOrganiser = mailTo(sink().received, ORGANISER).map((mail) => mail.parsed)
    expect(toOrganiser.map((mail) => mail.subject).sort()).toEqual(['Online training request', 'Website enquiry: Sponsorship'])
    const contact = toOrganiser.find((mail) => mail.subject === 'Website enquiry: Sponsorship')!
    expect(addresses(contact.replyTo)).toEqual(['naledi@example.org'])
    expect(contact.text).toContain('Dlamini Holdings')
    expect(contact.html).toContain('We would like to sponsor.<br>Please call.')
    const training = toOrganiser.find((mail) => mail.subject === 'Online training request')!
    expect(addresses(training.replyTo)).toEqual(['sipho@example.org'])
    expect(training.text).toContain('City of Example')

    const [acknowledgement] = mailTo(sink().received, 'naledi@example.org')
    expect(acknowledgement!.parsed.subject).toBe('Thank you for contacting Example Events')
    expect(acknowledgement!.parsed.text).not.toContain('Naledi')
    expect(acknowledgement!.parsed.text).toContain('reply to this address')
    expect(mailTo(sink().received, 'sipho@example.org')).toHaveLength(1)
  })

  it('accepts a registration while SMTP is down and delivers it exactly once when SMTP returns', async () => {
    await sink().stop()
    const { receipt } = await createRegistration(registrations(), registrationInput())
    expect(receipt.status).toBe('awaiting-payment')
    expect(await deliver()).toEqual({ sent: 0, retrying: 4, failed: 0 })

    const pending = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().execute()
    expect(pending.every((row) => row.status === 'pending' && row.attempts === 1 && row.last_error)).toBe(true)
    // The first retry comes within 10 seconds.
    expect(pending.every((row) => new Date(row.next_attempt_at).getTime() - clock.getTime() <= 10_000)).toBe(true)

    await sink().start()
    clock = new Date(clock.getTime() + 1_000)
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    clock = new Date(clock.getTime() + 5_000)
    expect(await deliver()).toEqual({ sent: 4, retrying: 0, failed: 0 })
    clock = new Date(clock.getTime() + 60 * 60_000)
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    expect(sink().received).toHaveLength(4)
    expect(mailTo(sink().received, ORGANISER)).toHaveLength(1)
  })

  it('opens new connections when the SMTP server restarts under pooled ones', async () => {
    const request = { kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' } as const
    await enquiries().submitTrainingRequest(request)
    expect(await deliver()).toEqual({ sent: 2, retrying: 0, failed: 0 })
    await sink().stop()
    await sink().start()
    await enquiries().submitTrainingRequest(request)
    expect(await deliver()).toEqual({ sent: 2, retrying: 0, failed: 0 })
    expect(sink().received).toHaveLength(4)
  })

  it('keeps to the connection limit of a mail provider, given as maxConnections in SMTP_URL', async () => {
    const limited = await startMailSink({ from: FROM, maxConnections: 1 })
    try {
      await createRegistration(registrations(), registrationInput())
      const report = await deliverDueMessages({ db: testDb.db, transport: limited.transport, now: () => clock, log: quiet })
      expect(report).toEqual({ sent: 4, retrying: 0, failed: 0 })
      expect(limited.sink.received).toHaveLength(4)
    } finally {
      await limited.stop()
    }
  })

  it('backs off up to 5 minutes apart and gives up after 24 hours', async () => {
    await sink().stop()
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    const start = clock.getTime()
    const delays: number[] = []
    for (let round = 0; round < 12; round++) {
      const report = await deliver()
      expect(report.sent).toBe(0)
      const [row] = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().orderBy('next_attempt_at').limit(1).execute()
      delays.push(new Date(row!.next_attempt_at).getTime() - clock.getTime())
      clock = new Date(row!.next_attempt_at)
    }
    expect(delays.slice(0, 8)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000])

    clock = new Date(start + 24 * 60 * 60_000)
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 2 })
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select('status').execute()
    expect(rows.map((row) => row.status)).toEqual(['failed', 'failed'])
    await sink().start()
    clock = new Date(clock.getTime() + 60 * 60_000)
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
  })

  it('runs in the background, retries after an outage and never sends a message twice with two workers', async () => {
    await sink().stop()
    const service = registrations()
    for (let index = 0; index < 6; index++) {
      await createRegistration(service, registrationInput({ companyName: `Company ${index}` }))
    }
    const otherInstance = await testDb.openAnother()
    const workers = [testDb.db, otherInstance].map((db) => startOutboxWorker({ db, transport: transport(), pollIntervalMs: 10, now: () => clock, log: quiet }))
    await waitFor(async () => {
      const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['last_error', 'lease_token']).execute()
      return rows.every((row) => row.last_error !== null && row.lease_token === null)
    })
    await sink().start()
    clock = new Date(clock.getTime() + 10_000)
    await waitFor(async () => {
      const rows = await testDb.db.kysely.selectFrom('outbox_messages').select('status').execute()
      return rows.every((row) => row.status === 'sent')
    })
    await Promise.all(workers.map((worker) => worker.stop()))

    expect(sink().received).toHaveLength(24)
    expect(new Set(sink().received.map((mail) => mail.parsed.messageId)).size).toBe(24)
  })

  // A worker of the previous release claims a message under a lease, leaving it `pending`, and sends it: it is taken
  // over as before once the lease has run out.
  it('takes over a message a worker of the previous release claimed and died with, once its lease has run out', async () => {
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    await testDb.db.kysely
      .updateTable('outbox_messages')
      .set({ attempts: 1, lease_token: 'dead-worker', locked_until: new Date(clock.getTime() + 60_000).toISOString() })
      .execute()
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    clock = new Date(clock.getTime() + 60_000)
    expect(await deliver()).toEqual({ sent: 2, retrying: 0, failed: 0 })
  })

  it('does not send again the messages of a worker that died while sending them: once their lease has run out they are uncertain', async () => {
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    const claimedAt = clock.getTime()
    const { stdout, signal } = await runUntilKilled(CLAIM_THEN_DIE, [JSON.stringify(testDb.openOptions), clock.toISOString()])
    expect(signal, stdout).toBe('SIGKILL')
    expect(stdout).toBe('claimed\n')
    const claims = await testDb.db.kysely.selectFrom('outbox_messages').select(['id', 'status', 'message_id', 'lease_token', 'attempts']).execute()
    expect(claims.map((claim) => claim.status)).toEqual(['sending', 'sending'])
    for (const claim of claims) {
      expect(claim).toMatchObject({ attempts: 1, message_id: `<outbox-${claim.id}@example.com>` })
      expect(claim.lease_token).not.toBeNull()
    }

    const lines: string[] = []
    const deliverLogged = () => deliverDueMessages({ db: testDb.db, transport: transport(), now: () => clock, log: (line) => void lines.push(line) })
    clock = new Date(claimedAt + 20_000)
    expect(await deliverLogged()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    expect(lines).toEqual([])
    clock = new Date(claimedAt + DEFAULT_LEASE_MS)
    expect(await deliverLogged()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    clock = new Date(claimedAt + 24 * 60 * 60_000)
    expect(await deliverLogged()).toEqual({ sent: 0, retrying: 0, failed: 0 })

    expect(sink().received).toHaveLength(0)
    const settled = await testDb.db.kysely.selectFrom('outbox_messages').select(['status', 'lease_token', 'last_error']).execute()
    expect(settled).toEqual([
      { status: 'uncertain', lease_token: null, last_error: UNCERTAIN_SEND },
      { status: 'uncertain', lease_token: null, last_error: UNCERTAIN_SEND },
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/was being sent when its worker stopped answering; it is not sent again until staff say so$/)
  })

  it('sends a message once when its send succeeds and recording it fails: it is uncertain, not sent again', async () => {
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    let connectionLost = false
    // Every write fails once SMTP has taken a message, as when the connection to PostgreSQL is killed after the send.
    const losesItsConnection = new Proxy(testDb.db, {
      get(target, property, receiver) {
        if (property === 'writeStatement' && connectionLost) return () => Promise.reject(new Error('Connection terminated unexpectedly'))
        return Reflect.get(target, property, receiver) as unknown
      },
    })
    const sendThenLoseTheDatabase: MailTransport = {
      async send(mail, id) {
        await transport().send(mail, id)
        connectionLost = true
      },
      messageIdDomain: 'example.com',
      close: () => undefined,
    }
    const lines: string[] = []
    // The first message went out; recording it failed, and so did the claim of the next one, and with it the round.
    await expect(
      deliverDueMessages({
        db: losesItsConnection,
        transport: sendThenLoseTheDatabase,
        concurrency: 1,
        now: () => clock,
        log: (line) => void lines.push(line),
      }),
    ).rejects.toThrow('Connection terminated unexpectedly')
    expect(sink().received).toHaveLength(1)
    expect(lines).toEqual([
      expect.stringMatching(
        /^outbox: sent training\.\S+ message \S+ but could not record it \(it will not be sent again\): Connection terminated unexpectedly$/,
      ),
    ])
    const [sentFirst] = sink().received
    const first = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().where('status', '=', 'sending').executeTakeFirstOrThrow()
    expect(sentFirst?.parsed.messageId).toBe(first.message_id)

    // The database is back: the other message goes out; the one already sent waits out its lease and is not sent again.
    connectionLost = false
    expect(await deliver()).toEqual({ sent: 1, retrying: 0, failed: 0 })
    clock = new Date(clock.getTime() + DEFAULT_LEASE_MS)
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    clock = new Date(clock.getTime() + 24 * 60 * 60_000)
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    expect(sink().received).toHaveLength(2)
    expect(new Set(sink().received.map((mail) => mail.parsed.messageId)).size).toBe(2)
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['id', 'status']).orderBy('status').execute()
    expect(rows).toEqual([
      { id: expect.any(String), status: 'sent' },
      { id: first.id, status: 'uncertain' },
    ])
  })

  it('records a sent message on a second try when the first record of it fails', async () => {
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    let writesToFail = 0
    const dropsOneWrite = new Proxy(testDb.db, {
      get(target, property, receiver) {
        if (property === 'writeStatement' && writesToFail > 0) {
          writesToFail--
          return () => Promise.reject(new Error('Connection terminated unexpectedly'))
        }
        return Reflect.get(target, property, receiver) as unknown
      },
    })
    const sendThenDropOneWrite: MailTransport = {
      async send(mail, id) {
        await transport().send(mail, id)
        writesToFail = 1
      },
      messageIdDomain: 'example.com',
      close: () => undefined,
    }
    expect(await deliverDueMessages({ db: dropsOneWrite, transport: sendThenDropOneWrite, concurrency: 1, now: () => clock, log: quiet })).toEqual({
      sent: 2,
      retrying: 0,
      failed: 0,
    })
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['status', 'message_id']).execute()
    expect(rows.map((row) => row.status)).toEqual(['sent', 'sent'])
    expect(
      sink()
        .received.map((mail) => mail.parsed.messageId)
        .sort(),
    ).toEqual(rows.map((row) => row.message_id).sort())
  })

  it('settles a message left sending by the mail files when mail is written to files: sent if its file is there, sent now if not', async () => {
    const { dir, remove } = temporaryDirectory()
    const files = createMailTransport({ dataDir: dir, from: FROM, log: quiet })
    try {
      await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
      const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['id', 'topic']).orderBy('topic').execute()
      const [written, notWritten] = rows
      // A worker died after writing the first message's file and before recording it, and before writing the second.
      await testDb.db.kysely
        .updateTable('outbox_messages')
        .set({ status: 'sending', attempts: 1, lease_token: 'dead-worker', locked_until: clock.toISOString() })
        .execute()
      await files.send({ to: ['a@example.org'], subject: 'Written before the worker died', text: 'T', html: '<p>T</p>' }, written!.id)

      const lines: string[] = []
      expect(await deliverDueMessages({ db: testDb.db, transport: files, now: () => clock, log: (line) => void lines.push(line) })).toEqual({
        sent: 1,
        retrying: 0,
        failed: 0,
      })
      const settled = await testDb.db.kysely.selectFrom('outbox_messages').select(['id', 'status', 'attempts', 'sent_to']).orderBy('topic').execute()
      expect(settled).toEqual([
        { id: written!.id, status: 'sent', attempts: 1, sent_to: JSON.stringify(['a@example.org']) },
        { id: notWritten!.id, status: 'sent', attempts: 2, sent_to: JSON.stringify([ORGANISER]) },
      ])
      expect(readdirSync(path.join(dir, 'mail')).sort()).toEqual([`${written!.id}.eml`, `${notWritten!.id}.eml`].sort())
      expect(readFileSync(path.join(dir, 'mail', `${written!.id}.eml`), 'utf8')).toContain('Subject: Written before the worker died')
      expect(lines).toEqual(
        expect.arrayContaining([
          `outbox: ${written!.topic} message ${written!.id} was being sent when its worker stopped answering; the mail files show it was sent`,
          `outbox: ${notWritten!.topic} message ${notWritten!.id} was being sent when its worker stopped answering; the mail files show it was not sent, so it goes out now`,
        ]),
      )
    } finally {
      files.close()
      remove()
    }
  })

  it('renews the lease of a message while it is being sent, so a slow send is never taken over and sent twice', async () => {
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    const claimedAt = clock.getTime()
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => (release = resolve))
    let started = 0
    const slowTransport: MailTransport = {
      async send(mail, id) {
        started++
        await released
        await transport().send(mail, id)
      },
      messageIdDomain: 'example.com',
      close: () => undefined,
    }
    const sending = deliverDueMessages({ db: testDb.db, transport: slowTransport, concurrency: 2, renewEveryMs: 20, now: () => clock, log: quiet })
    await waitFor(() => started === 2)

    const leasesReach = (until: number) => async () => {
      const rows = await testDb.db.kysely.selectFrom('outbox_messages').select('locked_until').execute()
      return rows.every((row) => row.locked_until !== null && new Date(row.locked_until).getTime() >= until)
    }
    // Business time runs on well past the lease while the send is still under way; another worker finds nothing.
    for (const elapsed of [45_000, 10 * 60_000]) {
      clock = new Date(claimedAt + elapsed)
      await waitFor(leasesReach(clock.getTime() + DEFAULT_LEASE_MS))
      expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 })
    }
    release()
    expect(await sending).toEqual({ sent: 2, retrying: 0, failed: 0 })
    expect(sink().received).toHaveLength(2)
    expect(new Set(sink().received.map((mail) => mail.parsed.messageId)).size).toBe(2)
  })

  it('waits longer between rounds while the database stays unreachable, and resumes polling once it is back', async () => {
    await enquiries().submitTrainingRequest({ kind: 'inhouse', name: 'A', email: 'a@example.org', phone: '011 555 0100', organization: 'O', message: 'M' })
    let databaseDown = true
    const unreachableWhileDown = new Proxy(testDb.db, {
      get(target, property, receiver) {
        if (databaseDown) throw new Error('connect ECONNREFUSED 127.0.0.1:5432')
        return Reflect.get(target, property, receiver) as unknown
      },
    })
    const lines: string[] = []
    const worker = startOutboxWorker({
      db: unreachableWhileDown,
      transport: transport(),
      pollIntervalMs: 10,
      maxFailureBackoffMs: 80,
      now: () => clock,
      log: (line) => void lines.push(line),
    })
    // The waits the worker announces double from its 10 ms poll and stop at 80 ms, however slowly the rounds come.
    const failures = () => lines.filter((line) => line.startsWith('outbox: delivery round failed'))
    await waitFor(async () => failures().length >= 5)
    expect(
      failures()
        .slice(0, 5)
        .map((line) => /next in ([\d.]+) s/.exec(line)?.[1]),
    ).toEqual(['0.02', '0.04', '0.08', '0.08', '0.08'])

    databaseDown = false
    await waitFor(async () => sink().received.length === 2)
    await worker.stop()
    expect(lines.at(-1)).toMatch(/^outbox: delivery resumed after \d+ failed rounds$/)
  })

  it('sends several messages at a time, and when stopped finishes those in flight and starts no other', async () => {
    for (let index = 0; index < 3; index++) {
      await enquiries().submitTrainingRequest({
        kind: 'inhouse',
        name: `A${index}`,
        email: 'a@example.org',
        phone: '011 555 0100',
        organization: 'O',
        message: 'M',
      })
    }
    const releases: Array<() => void> = []
    let bothStarted: () => void = () => undefined
    const twoInFlight = new Promise<void>((resolve) => (bothStarted = resolve))
    const slowTransport: MailTransport = {
      async send(mail, id) {
        await new Promise<void>((resolve) => {
          releases.push(resolve)
          if (releases.length === 2) bothStarted()
        })
        await transport().send(mail, id)
      },
      messageIdDomain: 'example.com',
      close: () => undefined,
    }
    const worker = startOutboxWorker({ db: testDb.db, transport: slowTransport, concurrency: 2, pollIntervalMs: 10, now: () => clock, log: quiet })
    await twoInFlight
    const stopped = worker.stop()
    for (const release of releases) release()
    await stopped
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select('status').orderBy('status').execute()
    expect(rows.map((row) => row.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'sent', 'sent'])
    expect(sink().received).toHaveLength(2)
  })

  it('sends one message at a time while requests keep waking it, and several at a time once they stop', async () => {
    for (let index = 0; index < 3; index++) {
      await enquiries().submitTrainingRequest({
        kind: 'inhouse',
        name: `A${index}`,
        email: 'a@example.org',
        phone: '011 555 0100',
        organization: 'O',
        message: 'M',
      })
    }
    let busy = true
    let inFlight = 0
    let mostInFlightWhileBusy = 0
    let twoInFlight: () => void = () => undefined
    const bothLanesSending = new Promise<void>((resolve) => (twoInFlight = resolve))
    let sent = 0
    const watchedTransport: MailTransport = {
      async send(mail, id) {
        inFlight++
        if (busy) mostInFlightWhileBusy = Math.max(mostInFlightWhileBusy, inFlight)
        if (inFlight === 2) twoInFlight()
        // While busy a send takes a while, long enough for a second lane to join if it were let; afterwards each
        // send waits for a second one, so the rest go out only if two lanes send at once.
        await (busy ? new Promise((resolve) => setTimeout(resolve, 30)) : bothLanesSending)
        await transport().send(mail, id)
        inFlight--
        sent++
      },
      messageIdDomain: 'example.com',
      close: () => undefined,
    }
    const worker = startOutboxWorker({ db: testDb.db, transport: watchedTransport, concurrency: 2, pollIntervalMs: 10, now: () => clock, log: quiet })
    worker.wake()
    const waking = setInterval(() => worker.wake(), 10)
    try {
      await waitFor(() => sent >= 3)
    } finally {
      clearInterval(waking)
      busy = false
    }
    await waitFor(() => sent === 6)
    await worker.stop()
    expect(mostInFlightWhileBusy).toBe(1)
    expect(sink().received).toHaveLength(6)
  })
})

describe('file transport', () => {
  it('writes each message as an .eml file under DATA_DIR/mail and logs where', async () => {
    const { dir, remove } = temporaryDirectory()
    const lines: string[] = []
    const transport = createMailTransport({ dataDir: dir, from: FROM, log: (line) => lines.push(line) })
    try {
      await transport.send({ to: ['visitor@example.com'], subject: 'Hello', text: 'Plain', html: '<p>Rich</p>' }, 'message-1')
      await transport.send({ to: ['visitor@example.com'], subject: 'Hello again', text: 'Plain', html: '<p>Rich</p>' }, 'message-1')
      expect(readdirSync(path.join(dir, 'mail'))).toEqual(['message-1.eml'])
      const eml = readFileSync(path.join(dir, 'mail', 'message-1.eml'), 'utf8')
      expect(eml).toContain('Subject: Hello again')
      expect(eml).toContain('To: visitor@example.com')
      expect(eml).toContain('Message-ID: <outbox-message-1@example.com>')
      expect(lines[0]).toContain(path.join(dir, 'mail', 'message-1.eml'))
    } finally {
      transport.close()
      remove()
    }
  })
})
