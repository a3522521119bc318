import { unzipSync } from 'fflate'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { changeDelegate } from '../backoffice/registration-changes.ts'
import { register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { outgoingMailOf } from '../outbox/stored-mail.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import {
  agendaCpdMinutes,
  certificatesOfRegistration,
  certificatesScreen,
  certificatesZip,
  formatAttendedDays,
  formatCpdHours,
  issueCertificates,
  issueDueCertificates,
  resendCertificate,
  revokeCertificate,
  saveCpdHours,
  verifyCertificate,
} from './certificates.ts'
import { checkInDelegate, recordDeparture } from './check-in.ts'
import { joinMeeting, saveJoiningInstructions } from './joining.ts'
import { passesOfRegistration } from './passes.ts'

// Legal Opinion Writing runs on 3 and 4 July 2025 in the tests' catalogue, six and a quarter hours of sessions a day.
const DAY_ONE = '2025-07-03'
const DAY_TWO = '2025-07-04'

async function pdfText(pdf: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })
  return text
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
    expect(agendaCpdMinutes(agenda, [DAY_ONE])).toBe(210)
    expect(agendaCpdMinutes(agenda, [DAY_ONE, DAY_TWO])).toBe(330)
    expect(agendaCpdMinutes(agenda, [])).toBe(0)
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
    expect(agendaCpdMinutes(agenda, days, departures)).toBe(minutes)
  })
})

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

  const at = (iso: string) => ({ ...testContext(testDb.db, () => new Date(iso)), siteNow: () => new Date(iso) })
  const AFTER_THE_EVENT = '2025-07-05T08:00:00Z'

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
    await attend()
    // Thandi leaves at tea on the second day (10:40 in Johannesburg): only its first session (08:30–10:30) counts.
    await recordDeparture(at('2025-07-04T08:40:00Z'), { eventId, day: DAY_TWO, delegateId: await thandiId() }, STAFF)
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(2)
    const thandi = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!.certificates.find((c) => c.name === 'Thandi Nkosi')!
    // 6 h 15 on day one and 2 h on day two, rounded down to the half hour.
    expect([thandi.days, thandi.cpdHoursText]).toEqual([[DAY_ONE, DAY_TWO], '8 hours'])
  })

  it('under staff’s hours per day, a departure day counts the sessions before it, never more than the day’s hours', async () => {
    await attend()
    await saveCpdHours(testContext(testDb.db), { eventId, hoursPerDay: '6' }, STAFF)
    await recordDeparture(at('2025-07-04T08:40:00Z'), { eventId, day: DAY_TWO, delegateId: await thandiId() }, STAFF)
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(2)
    const thandi = (await certificatesScreen(at(AFTER_THE_EVENT), eventId))!.certificates.find((c) => c.name === 'Thandi Nkosi')!
    // 6 hours on day one; on day two the 2 hours before tea, not the 6 set for the day.
    expect(thandi.cpdHoursText).toBe('8 hours')
  })

  it('issues nothing before the event ends, then one certificate per attending delegate, e-mailed with its PDF', async () => {
    await attend()
    expect(await issueDueCertificates(at('2025-07-04T10:00:00Z'))).toBe(0)
    await expect(issueCertificates(at('2025-07-04T10:00:00Z'), { eventId }, STAFF)).rejects.toMatchObject({ code: 'event-not-ended' })

    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(2)
    // A second round issues nothing again.
    expect(await issueDueCertificates(at(AFTER_THE_EVENT))).toBe(0)
    const screen = await certificatesScreen(at(AFTER_THE_EVENT), eventId)
    expect(screen!.agendaHoursText).toBe('12.5 hours')
    expect(screen!.certificates.map((c) => [c.name, c.days, c.cpdHoursText, c.state])).toEqual([
      ['Sipho Dlamini', [DAY_ONE], '6 hours', 'valid'],
      ['Thandi Nkosi', [DAY_ONE, DAY_TWO], '12.5 hours', 'valid'],
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
    const text = await pdfText(Buffer.from(attachment.content, 'base64'))
    expect(text).toContain('Thandi Nkosi')
    expect(text).toContain('Legal Opinion Writing 2025')
    expect(text).toContain('on 3 and 4 July 2025')
    expect(text).toContain('CPD hours: 12.5 hours')
    expect(text).toContain(thandi.number)
    expect(text).toContain(`https://events.example.com/test-certificates/${thandi.number}`)
  })

  it('uses staff’s CPD hours per day, and refuses hours that are not half hours', async () => {
    await attend()
    await expect(saveCpdHours(testContext(testDb.db), { eventId, hoursPerDay: '6.3' }, STAFF)).rejects.toMatchObject({
      issues: [expect.objectContaining({ code: 'invalid-cpd-hours' })],
    })
    await saveCpdHours(testContext(testDb.db), { eventId, hoursPerDay: '7' }, STAFF)
    const { issued } = await issueCertificates(at(AFTER_THE_EVENT), { eventId }, STAFF)
    expect(issued).toBe(2)
    const screen = await certificatesScreen(at(AFTER_THE_EVENT), eventId)
    expect(screen!.hoursPerDay).toBe(7)
    expect(screen!.certificates.map((c) => c.cpdHoursText)).toEqual(['7 hours', '14 hours'])
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(expect.arrayContaining(['cpd-hours-saved', 'certificates-issued']))
  })

  it('replaces a certificate when the name is corrected, revokes one, resends and zips those in force', async () => {
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
    expect(replacement).toMatchObject({ name: 'Thandiwe Nkosi', state: 'valid', cpdHoursText: '12.5 hours', daysText: '3 and 4 July 2025' })
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
    expect(await pdfText(zip[`certificate-${replacement!.number}.pdf`]!)).toContain('Thandiwe Nkosi')
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(
      expect.arrayContaining(['registration-delegate-changed', 'certificate-resent', 'certificate-revoked']),
    )
  })
})
