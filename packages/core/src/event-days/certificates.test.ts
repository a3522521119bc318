import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { EventCatalog, RegistrationEvent } from '../catalog.ts'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { changeDelegate } from '../backoffice/registration-changes.ts'
import { register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { outgoingMailOf } from '../outbox/stored-mail.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { LEGAL_OPINION, SETTINGS, TEST_BACKENDS, openTestDatabase, pdftotext, testAuditRows, type TestDatabase } from '../test-support.ts'
import {
  cpdBreakdown,
  certificatePdf,
  certificatesOfRegistration,
  certificatesScreen,
  certificatesZip,
  formatAttendedDays,
  formatCpdHours,
  issueCertificates,
  issueDueCertificates,
  resendCertificate,
  revokeCertificate,
  saveCpdDayHours,
  verifyCertificate,
} from './certificates.ts'
import { checkInDelegate, recordDeparture } from './check-in.ts'
import { joinMeeting, saveJoiningInstructions } from './joining.ts'
import { passesOfRegistration } from './passes.ts'

// Legal Opinion Writing runs on 3 and 4 July 2025 in the tests' catalogue, six and a quarter hours of sessions a day.
const DAY_ONE = '2025-07-03'
const DAY_TWO = '2025-07-04'

/** A PDF's text (poppler's, as a CPD body's staff would copy it) and how many images it shows. */
function readPdf(pdf: Uint8Array): { text: string; images: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'certificate-'))
  try {
    const file = path.join(dir, 'certificate.pdf')
    writeFileSync(file, pdf)
    // pdfimages lists each image, and an image's transparency as a mask of its own ("smask"): images only.
    const rows = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2)
    return { text: pdftotext(pdf), images: rows.filter((row) => row.trim().split(/\s+/)[2] === 'image').length }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('CPD hours and dates', () => {
  it('counts the agenda’s sessions of the days attended, breaks left out, rounded down to the half hour', () => {
    const agenda = [
      {
        date: DAY_ONE,
        sessions: [
          { start: '08:00', end: '08:30', isBreak: true },
          { start: '08:30', end: '10:30', isBreak: false },
          { start: '10:30', end: '10:45', isBreak: true },
          { start: '10:45', end: '12:30', isBreak: false },
        ],
      },
      { date: DAY_TWO, sessions: [{ start: '09:00', end: '11:00', isBreak: false }] },
    ]
    expect(cpdBreakdown(agenda, [DAY_ONE]).totalMinutes).toBe(210)
    expect(cpdBreakdown(agenda, [DAY_ONE, DAY_TWO])).toEqual({
      days: [
        { date: DAY_ONE, minutes: 210 },
        { date: DAY_TWO, minutes: 120 },
      ],
      ethicsMinutes: 0,
      totalMinutes: 330,
    })
    expect(cpdBreakdown(agenda, []).totalMinutes).toBe(0)
    expect(formatCpdHours(390)).toBe('6.5 hours')
    expect(formatCpdHours(60)).toBe('1 hour')
    expect(formatAttendedDays([DAY_ONE, DAY_TWO])).toBe('3 and 4 July 2025')
    expect(formatAttendedDays(['2025-06-30', '2025-07-01'])).toBe('30 June 2025 and 1 July 2025')
  })
})

describe('CPD hours of a delegate who left early', () => {
  const agenda = [
    {
      date: DAY_ONE,
      sessions: [
        { start: '08:30', end: '10:30', isBreak: false },
        { start: '10:30', end: '10:45', isBreak: true },
        { start: '10:45', end: '12:30', isBreak: false },
        { start: '12:30', end: '13:15', isBreak: true },
        { start: '13:15', end: '15:45', isBreak: false },
      ],
    },
    { date: DAY_TWO, sessions: [{ start: '09:00', end: '11:00', isBreak: false }] },
  ]
  const at = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3))
  it.each([
    ['no departure (6 h 15, rounded down)', [DAY_ONE], {}, 360],
    ['left at tea, the first session over', [DAY_ONE], { [DAY_ONE]: at('10:40') }, 120],
    ['left as the first session ended', [DAY_ONE], { [DAY_ONE]: at('10:30') }, 120],
    ['left during the first session', [DAY_ONE], { [DAY_ONE]: at('10:29') }, 0],
    ['left before the day began', [DAY_ONE], { [DAY_ONE]: at('07:00') }, 0],
    ['left at lunch', [DAY_ONE], { [DAY_ONE]: at('12:45') }, 210],
    ['left after the last session', [DAY_ONE], { [DAY_ONE]: at('17:00') }, 360],
    ['left early on day one, the whole of day two', [DAY_ONE, DAY_TWO], { [DAY_ONE]: at('12:45') }, 330],
    ['a departure on a day not attended changes nothing', [DAY_ONE], { [DAY_TWO]: at('09:30') }, 360],
  ] as const)('%s', (_case, days, departures, minutes) => {
    expect(cpdBreakdown(agenda, days, { departures }).totalMinutes).toBe(minutes)
  })
})

describe('CPD hours per day and of ethics', () => {
  const agenda = [
    {
      date: DAY_ONE,
      sessions: [
        { start: '08:30', end: '10:30', isBreak: false },
        { start: '10:30', end: '10:45', isBreak: true },
        { start: '10:45', end: '12:30', isBreak: false },
        { start: '12:30', end: '13:15', isBreak: true },
        { start: '13:15', end: '15:45', isBreak: false, isEthics: true },
      ],
    },
    { date: DAY_TWO, sessions: [{ start: '09:00', end: '11:30', isBreak: false }] },
  ]
  it('counts each day rounded down to the half hour, the ethics sessions within it, and a total that adds up', () => {
    expect(cpdBreakdown(agenda, [DAY_TWO, DAY_ONE])).toEqual({
      days: [
        { date: DAY_ONE, minutes: 360 },
        { date: DAY_TWO, minutes: 150 },
      ],
      ethicsMinutes: 150,
      totalMinutes: 510,
    })
  })
  it('uses staff’s hours of a day, caps the ethics hours by them, and ignores an override of a day not attended', () => {
    expect(cpdBreakdown(agenda, [DAY_ONE], { overrides: { [DAY_ONE]: 120, [DAY_TWO]: 600 } })).toEqual({
      days: [{ date: DAY_ONE, minutes: 120 }],
      ethicsMinutes: 120,
      totalMinutes: 120,
    })
  })
  it('counts no ethics hours for a delegate who left before the ethics session, and nothing on a day left before any session', () => {
    expect(cpdBreakdown(agenda, [DAY_ONE, DAY_TWO], { departures: { [DAY_ONE]: 13 * 60, [DAY_TWO]: 8 * 60 }, overrides: { [DAY_TWO]: 180 } })).toEqual({
      days: [
        { date: DAY_ONE, minutes: 210 },
        { date: DAY_TWO, minutes: 0 },
      ],
      ethicsMinutes: 0,
      totalMinutes: 210,
    })
  })
})

/** A signature image server: a PNG, a missing one, and one that never answers. */
let signatureServer: Server
let signatureBase: string
const SIGNATURE_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
beforeAll(async () => {
  signatureServer = createServer((request, response) => {
    if (request.url === '/signature.png') response.writeHead(200, { 'content-type': 'image/png' }).end(SIGNATURE_PNG)
    else if (request.url === '/hangs.png') request.on('close', () => response.destroy())
    else response.writeHead(404).end('Not found')
  })
  await new Promise<void>((resolve) => signatureServer.listen(0, '127.0.0.1', resolve))
  signatureBase = `http://127.0.0.1:${(signatureServer.address() as AddressInfo).port}`
})
afterAll(async () => {
  signatureServer.closeAllConnections()
  await new Promise((resolve) => signatureServer.close(resolve))
})

/** Legal Opinion accredited for CPD, its last afternoon session on day one an ethics session. */
const CPD_EVENT: RegistrationEvent = {
  ...LEGAL_OPINION,
  cpd: { accreditingBody: 'Legal Practice Council', accreditationNumber: 'LPC-CPD-2025-0173', category: 'Substantive law' },
  agendaDays: LEGAL_OPINION.agendaDays!.map((day) =>
    day.date === DAY_ONE ? { ...day, sessions: day.sessions.map((session) => (session.start === '13:15' ? { ...session, isEthics: true } : session)) } : day,
  ),
}

function catalogWith(event: RegistrationEvent, signatureUrl: string | null = null): EventCatalog {
  return {
    getEvent: async (slug) => (slug === event.slug ? event : undefined),
    getSettings: async () => ({ ...SETTINGS, certificateSignatory: { name: 'Naledi Mokoena', title: 'Director of Training', signatureUrl } }),
  }
}

describe.each(TEST_BACKENDS)('certificates of attendance on %s', (backend) => {
  let testDb: TestDatabase
  let eventId: string
  let venueRegistrationId: string
  let onlineToken: string
  let venueCodes: string[]

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    await register(
      testDb.db,
      {},
      { attendanceOption: 'online', delegates: [{ name: 'Sipho Dlamini', position: 'Director', email: 'sipho@muller.example.com' }] },
    )
    const rows = await testDb.db.kysely.selectFrom('registrations').select(['id', 'event_id', 'event_slug']).orderBy('created_at').execute()
    eventId = eventKeyOf(rows[0]!)
    venueRegistrationId = rows[0]!.id
    venueCodes = (await passesOfRegistration(testDb.db.kysely, rows[0]!.id)).map((pass) => pass.code)
    onlineToken = (await passesOfRegistration(testDb.db.kysely, rows[1]!.id))[0]!.token
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const at = (iso: string, catalog?: EventCatalog) => ({
    ...testContext(testDb.db, () => new Date(iso)),
    siteNow: () => new Date(iso),
    ...(catalog ? { catalog } : {}),
  })
  const AFTER_THE_EVENT = '2025-07-05T08:00:00Z'

  /** Pays a registration in full by bank transfer, recorded on `iso` (before the event when not given). */
  async function pay(registrationId: string, iso = '2025-03-01T10:00:00Z', catalog?: EventCatalog) {
    const row = await testDb.db.kysely
      .selectFrom('registrations')
      .select(['reference', 'total_cents'])
      .where('id', '=', registrationId)
      .executeTakeFirstOrThrow()
    return recordBankTransfer(
      at(iso, catalog),
      { reference: row.reference, amount: (row.total_cents / 100).toFixed(2), receivedOn: iso.slice(0, 10), bankReference: `B-${row.reference}` },
      STAFF,
    )
  }

  async function onlineRegistrationId(): Promise<string> {
    return (await testDb.db.kysely.selectFrom('registrations').select('id').where('id', '<>', venueRegistrationId).executeTakeFirstOrThrow()).id
  }

  async function payAll() {
    await pay(venueRegistrationId)
    await pay(await onlineRegistrationId())
  }

  /** Thandi checked in on both days, Sipho joined online on day one; Pieter never came. */
  async function attend(): Promise<void> {
    await checkInDelegate(at('2025-07-03T06:10:00Z'), { eventId, day: DAY_ONE, code: venueCodes[0]! }, STAFF)
    await checkInDelegate(at('2025-07-04T06:10:00Z'), { eventId, day: DAY_TWO, code: venueCodes[0]! }, STAFF)
    await saveJoiningInstructions(testContext(testDb.db), { eventId, meetingUrl: 'https://meet.example.com/legal' }, STAFF)
    await joinMeeting(at('2025-07-03T06:20:00Z'), onlineToken)
  }

  async function thandiId(): Promise<string> {
    return (await testDb.db.kysely.selectFrom('registration_delegates').select('id').where('name', '=', 'Thandi Nkosi').executeTakeFirstOrThrow()).id
  }

  async function certificateMails() {
    return testDb.db.kysely.selectFrom('outbox_messages').select(['mail', 'source_id']).where('topic', '=', 'certificate').orderBy('created_at').execute()
  }

  it('counts only the sessions before a recorded departure, by the agenda and under staff’s hours per day', async () => {
    await payAll()
    await attend()
    // Thandi leaves at tea on the second day (10:40 in Johannesburg): only its first session (08:30–10:30) counts.
    await recordDeparture(at('2025-07-04T08:40:00Z'), { eventId, day: DAY_TWO, delegateId: await thandiId() }, STAFF)
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(2)
    const thandi = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!.certificates.find((c) => c.name === 'Thandi Nkosi')!
    // 6 h 15 on day one and 2 h on day two, rounded down to the half hour.
    expect([thandi.days, thandi.cpdHoursText]).toEqual([[DAY_ONE, DAY_TWO], '8 hours'])
  })

  it('under staff’s hours of a day, a departure day counts the sessions before it, never more than the day’s hours', async () => {
    await payAll()
    await attend()
    await saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_ONE, hours: '6' }, STAFF)
    await saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_TWO, hours: '6' }, STAFF)
    await recordDeparture(at('2025-07-04T08:40:00Z'), { eventId, day: DAY_TWO, delegateId: await thandiId() }, STAFF)
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(2)
    const thandi = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!.certificates.find((c) => c.name === 'Thandi Nkosi')!
    // 6 hours on day one; on day two the 2 hours before tea, not the 6 set for the day.
    expect(thandi.cpdHoursText).toBe('8 hours')
  })

  it('issues nothing before the event ends, then one certificate per attending delegate, e-mailed with its PDF', async () => {
    await payAll()
    await attend()
    expect(await issueDueCertificates(at('2025-07-04T10:00:00Z'))).toBe(0)
    await expect(issueCertificates(at('2025-07-04T10:00:00Z'), { eventId }, STAFF)).rejects.toMatchObject({ code: 'event-not-ended' })

    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(2)
    // A second round issues nothing again.
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(0)
    const screen = await certificatesScreen(at(AFTER_THE_EVENT), eventId)
    // Six and a quarter hours of sessions a day count as 6 hours each: the days printed add up to the total.
    expect(screen!.days.map((day) => [day.dateText, day.hoursText])).toEqual([
      ['Thursday 3 July 2025', '6 hours'],
      ['Friday 4 July 2025', '6 hours'],
    ])
    expect(screen!.totalHoursText).toBe('12 hours')
    expect(screen!.certificates.map((c) => [c.name, c.days, c.cpdHoursText, c.state])).toEqual([
      ['Sipho Dlamini', [DAY_ONE], '6 hours', 'valid'],
      ['Thandi Nkosi', [DAY_ONE, DAY_TWO], '12 hours', 'valid'],
    ])
    const thandi = screen!.certificates.find((c) => c.name === 'Thandi Nkosi')!
    expect(thandi.number).toMatch(/^CPD-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)
    expect(await verifyCertificate({ db: testDb.db }, thandi.number.toLowerCase())).toMatchObject({
      name: 'Thandi Nkosi',
      state: 'valid',
      daysText: '3 and 4 July 2025',
    })

    const mails = await certificateMails()
    expect(mails).toHaveLength(2)
    const mail = await outgoingMailOf(
      testDb.db,
      mails.find((row) => row.source_id === venueRegistrationId)!,
    )
    expect(mail.to).toEqual(['thandi@acme.example.com'])
    expect(mail.subject).toBe('Your certificate of attendance: Legal Opinion Writing 2025')
    const attachment = mail.attachments![0]!
    expect(attachment.filename).toBe(`certificate-${thandi.number}.pdf`)
    const text = pdftotext(Buffer.from(attachment.content, 'base64'))
    expect(text).toContain('Thandi Nkosi')
    expect(text).toContain('Legal Opinion Writing 2025')
    expect(text).toContain('on 3 and 4 July 2025')
    expect(text).toContain('CPD hours: 12 hours')
    expect(text).toContain(thandi.number)
    expect(text).toContain(`https://events.example.com/test-certificates/${thandi.number}`)
  })

  it('refuses a day’s hours that are not half hours, beyond the day’s programme, or for a day not of the event, changing nothing', async () => {
    const save = (input: Record<string, string>) => saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_ONE, ...input }, STAFF)
    await expect(save({ hours: '6.3' })).rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'hours', code: 'invalid-cpd-hours' })] })
    // Day one's programme runs from 08:00 (registration) to 15:45: 7 h 45 at most.
    await expect(save({ hours: '8' })).rejects.toMatchObject({ code: 'cpd-hours-beyond-day', field: 'hours', details: { hours: '7.5 hours' } })
    await expect(save({ date: '2025-07-05', hours: '6' })).rejects.toMatchObject({ code: 'not-an-event-day', field: 'date' })
    await expect(save({ date: '3 July', hours: '6' })).rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'date', code: 'invalid-date' })] })
    expect(await testDb.db.kysely.selectFrom('event_cpd_day_hours').selectAll().execute()).toEqual([])
  })

  it('uses staff’s CPD hours of each day, shows each day’s hours, and counts the agenda again once cleared', async () => {
    await payAll()
    await attend()
    await saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_ONE, hours: '7' }, STAFF)
    await saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_TWO, hours: '5,5' }, STAFF)
    let screen = await certificatesScreen(at(AFTER_THE_EVENT), eventId)
    expect(screen!.days.map((day) => [day.date, day.agendaHoursText, day.hours, day.hoursText])).toEqual([
      [DAY_ONE, '6 hours', 7, '7 hours'],
      [DAY_TWO, '6 hours', 5.5, '5.5 hours'],
    ])
    expect(screen!.totalHoursText).toBe('12.5 hours')
    const { issued } = await issueCertificates(at(AFTER_THE_EVENT), { eventId }, STAFF)
    expect(issued).toBe(2)
    screen = await certificatesScreen(at(AFTER_THE_EVENT), eventId)
    expect(screen!.certificates.map((c) => [c.cpdHoursText, c.dayHours.map((day) => day.hoursText)])).toEqual([
      ['7 hours', ['7 hours']],
      ['12.5 hours', ['7 hours', '5.5 hours']],
    ])
    await saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_TWO, hours: '' }, STAFF)
    screen = await certificatesScreen(at(AFTER_THE_EVENT), eventId)
    expect(screen!.days.map((day) => day.hours)).toEqual([7, undefined])
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(expect.arrayContaining(['cpd-hours-saved', 'certificates-issued']))
  })

  it('replaces a certificate when the name is corrected, revokes one, resends and zips those in force', async () => {
    await payAll()
    await attend()
    await issueDueCertificates(at(AFTER_THE_EVENT))
    const reference = (await testDb.db.kysely.selectFrom('registrations').select('reference').where('id', '=', venueRegistrationId).executeTakeFirstOrThrow())
      .reference
    const [old] = await certificatesOfRegistration(testDb.db.kysely, venueRegistrationId)

    // Another person cannot take the place after the event; the same person's name can be corrected.
    await expect(
      changeDelegate(at(AFTER_THE_EVENT), { reference, delegate: '1', name: 'Someone Else', position: 'Attorney', email: 'else@acme.example.com' }, STAFF),
    ).rejects.toMatchObject({ code: 'event-started' })
    const change = await changeDelegate(
      at(AFTER_THE_EVENT),
      { reference, delegate: '1', name: 'Thandiwe Nkosi', position: 'Senior Associate', email: 'thandi@acme.example.com' },
      STAFF,
    )
    expect(change.replacedCertificate).toMatch(/^CPD-/)
    expect(await verifyCertificate({ db: testDb.db }, old!.number)).toMatchObject({ state: 'replaced', replacedBy: change.replacedCertificate })
    const replacement = await verifyCertificate({ db: testDb.db }, change.replacedCertificate!)
    expect(replacement).toMatchObject({ name: 'Thandiwe Nkosi', state: 'valid', cpdHoursText: '12 hours', daysText: '3 and 4 July 2025' })
    expect(replacement!.details).toEqual(old!.details)
    expect(await certificateMails()).toHaveLength(3)
    await expect(resendCertificate(testContext(testDb.db), { number: old!.number }, STAFF)).rejects.toMatchObject({ code: 'certificate-replaced' })

    await resendCertificate(testContext(testDb.db), { number: replacement!.number }, STAFF)
    expect(await certificateMails()).toHaveLength(4)

    const sipho = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!.certificates.find((c) => c.name === 'Sipho Dlamini')!
    await revokeCertificate(testContext(testDb.db), { number: sipho.number }, STAFF)
    expect(await verifyCertificate({ db: testDb.db }, sipho.number)).toMatchObject({ state: 'revoked' })
    await expect(revokeCertificate(testContext(testDb.db), { number: sipho.number }, STAFF)).rejects.toMatchObject({ code: 'certificate-revoked' })
    // A revoked certificate is not issued again by the round.
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(0)

    const zip = unzipSync((await certificatesZip({ db: testDb.db, links: testContext(testDb.db).links }, eventId))!)
    expect(Object.keys(zip)).toEqual([`certificate-${replacement!.number}.pdf`])
    expect(pdftotext(zip[`certificate-${replacement!.number}.pdf`]!)).toContain('Thandiwe Nkosi')
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(
      expect.arrayContaining(['registration-delegate-changed', 'certificate-resent', 'certificate-revoked']),
    )
  })

  it('holds an unpaid delegate’s certificate, lists them as waiting, and issues it when the registration is paid after the round', async () => {
    await attend()
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(0)
    const { issued } = await issueCertificates(at(AFTER_THE_EVENT), { eventId }, STAFF)
    expect(issued).toBe(0)
    const references = await testDb.db.kysely.selectFrom('registrations').select(['id', 'reference', 'total_cents']).execute()
    const referenceOf = (id: string) => references.find((row) => row.id === id)!
    let screen = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!
    expect(screen.onlyWhenPaid).toBe(true)
    expect(screen.waitingForPayment).toEqual([
      {
        name: 'Sipho Dlamini',
        reference: referenceOf(await onlineRegistrationId()).reference,
        outstandingCents: referenceOf(await onlineRegistrationId()).total_cents,
      },
      { name: 'Thandi Nkosi', reference: referenceOf(venueRegistrationId).reference, outstandingCents: referenceOf(venueRegistrationId).total_cents },
    ])

    // Thandi's registration is paid the day after the event: her certificate is issued with the payment.
    await pay(venueRegistrationId, AFTER_THE_EVENT)
    screen = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!
    expect(screen.certificates.map((c) => c.name)).toEqual(['Thandi Nkosi'])
    expect(screen.waitingForPayment.map((delegate) => delegate.name)).toEqual(['Sipho Dlamini'])
    expect((await certificateMails()).map((row) => row.source_id)).toEqual([venueRegistrationId])
    // The round after still holds Sipho's.
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(0)
  })

  it('a payment before the event ends issues nothing yet; the round after the event does', async () => {
    await attend()
    await pay(venueRegistrationId, '2025-07-04T10:00:00Z')
    expect(await certificateMails()).toEqual([])
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(1)
  })

  it('issues to unpaid delegates where the event does not hold certificates until payment', async () => {
    await attend()
    const catalog = catalogWith({ ...CPD_EVENT, certificatesOnlyWhenPaid: false })
    expect(await issueDueCertificates(at(AFTER_THE_EVENT, catalog))).toBe(2)
    expect((await certificatesScreen(at(AFTER_THE_EVENT, catalog), eventId))!.waitingForPayment).toEqual([])
  })

  it('prints what a CPD body asks for, keeps it with the certificate, and shows it on verification', async () => {
    await payAll()
    await attend()
    const catalog = catalogWith(CPD_EVENT, `${signatureBase}/signature.png`)
    await saveCpdDayHours(testContext(testDb.db), { eventId, date: DAY_TWO, hours: '5.5' }, STAFF)
    expect(await issueDueCertificates(at(AFTER_THE_EVENT, catalog))).toBe(2)
    const thandi = (await certificatesScreen(at(AFTER_THE_EVENT, catalog), eventId))!.certificates.find((c) => c.name === 'Thandi Nkosi')!
    const verified = await verifyCertificate({ db: testDb.db }, thandi.number)
    expect(verified).toMatchObject({
      cpdHoursText: '11.5 hours',
      ethicsHoursText: '2.5 hours',
      dayHours: [
        { date: DAY_ONE, dateText: 'Thursday 3 July 2025', hoursText: '6 hours' },
        { date: DAY_TWO, dateText: 'Friday 4 July 2025', hoursText: '5.5 hours' },
      ],
      details: {
        accreditation: { accreditingBody: 'Legal Practice Council', accreditationNumber: 'LPC-CPD-2025-0173', category: 'Substantive law' },
        venue: 'Indaba Hotel, William Nicol Drive, Fourways, Sandton, Johannesburg',
        signatory: { name: 'Naledi Mokoena', title: 'Director of Training', signatureUrl: `${signatureBase}/signature.png` },
      },
    })
    const { text, images } = readPdf((await certificatePdf({ db: testDb.db, links: testContext(testDb.db).links }, thandi.number))!)
    for (const line of [
      'Accredited by Legal Practice Council, provider accreditation number LPC-CPD-2025-0173',
      'CPD category: Substantive law',
      'at Indaba Hotel, William Nicol Drive, Fourways, Sandton, Johannesburg',
      'Hours per day: Thursday 3 July 2025: 6 hours · Friday 4 July 2025: 5.5 hours',
      'CPD hours: 11.5 hours',
      'of which ethics: 2.5 hours',
      'Naledi Mokoena',
      'Director of Training',
      `Verify at https://events.example.com/test-certificates/${thandi.number}`,
    ]) {
      expect(text).toContain(line)
    }
    // The QR code and the signature.
    expect(images).toBe(2)
  })

  it.each([
    ['a 404', '/missing.png'],
    ['no answer within 5 seconds', '/hangs.png'],
  ])(
    'keeps the signature line without the image when its address gives %s',
    async (_case, signaturePath) => {
      await payAll()
      await attend()
      expect(await issueDueCertificates(at(AFTER_THE_EVENT, catalogWith(CPD_EVENT, `${signatureBase}${signaturePath}`)))).toBe(2)
      const [certificate] = await certificatesOfRegistration(testDb.db.kysely, venueRegistrationId)
      const started = Date.now()
      const { text, images } = readPdf((await certificatePdf({ db: testDb.db, links: testContext(testDb.db).links }, certificate!.number))!)
      expect(Date.now() - started).toBeLessThan(7000)
      expect(images).toBe(1)
      expect(text).toContain('Naledi Mokoena')
    },
    15_000,
  )

  it('makes a certificate without accreditation lines for an event no CPD body accredits', async () => {
    await payAll()
    await attend()
    expect(await issueDueCertificates(at(AFTER_THE_EVENT, catalogWith({ ...LEGAL_OPINION, cpd: null })))).toBe(2)
    const [certificate] = await certificatesOfRegistration(testDb.db.kysely, venueRegistrationId)
    expect(certificate!.details!.accreditation).toBeNull()
    const text = pdftotext((await certificatePdf({ db: testDb.db, links: testContext(testDb.db).links }, certificate!.number))!)
    expect(text).not.toContain('Accredited by')
    expect(text).not.toContain('CPD category')
    expect(text).toContain('CPD hours: 12 hours')
    expect(text).toContain('of which ethics: 0 hours')
  })

  it('counts no hours for a day the delegate left before any session', async () => {
    await payAll()
    await attend()
    await recordDeparture(at('2025-07-04T06:20:00Z'), { eventId, day: DAY_TWO, delegateId: await thandiId() }, STAFF)
    await issueDueCertificates(at(AFTER_THE_EVENT))
    const [certificate] = await certificatesOfRegistration(testDb.db.kysely, venueRegistrationId)
    expect(certificate!.dayHours.map((day) => day.hoursText)).toEqual(['6 hours', '0 hours'])
    expect(certificate!.cpdHoursText).toBe('6 hours')
  })
})
