import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { changeDelegate } from '../backoffice/registration-changes.ts'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { TEST_BACKENDS, openTestDatabase, startMailSink, type TestDatabase } from '../test-support.ts'
import { formatPassCode, normalisePassCode } from './pass-codes.ts'
import { passesOfRegistration, passPage, passQrPath, passQrPng, registrationPasses } from './passes.ts'

/** The text a QR code PNG holds, read back as a scanner would. */
function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png)
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
}

describe('pass codes', () => {
  it.each([
    ['k7m2-q9xd', 'K7M2Q9XD'],
    [' K7M2 Q9XD ', 'K7M2Q9XD'],
    ['K7M2Q9X', undefined],
    ['K7M2-Q9X0', undefined],
    ['K7M2-Q9XI', undefined],
  ])('reads %j as %j', (typed, stored) => {
    expect(normalisePassCode(typed)).toBe(stored)
  })

  it('shows a code with a dash in the middle', () => {
    expect(formatPassCode('K7M2Q9XD')).toBe('K7M2-Q9XD')
  })

  it('draws a QR code a scanner reads back', async () => {
    expect(decodeQr(await passQrPng('K7M2-Q9XD'))).toBe('K7M2-Q9XD')
  })

  it('draws the same QR code as an SVG path, module for module', async () => {
    const png = PNG.sync.read(await passQrPng('K7M2-Q9XD', 1))
    const { size, path } = passQrPath('K7M2-Q9XD')
    expect(size).toBe(png.width)
    const dark = new Set<string>()
    for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g))
      for (let step = 0; step < Number(run); step++) dark.add(`${Number(x) + step},${y}`)
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) expect(dark.has(`${x},${y}`)).toBe(png.data[(y * size + x) * 4] === 0)
  })
})

describe.each(TEST_BACKENDS)('delegate passes on %s', (backend) => {
  let testDb: TestDatabase
  let reference: string
  let key: { reference: string; secret: string; id: string }

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[reference] = (await register(testDb.db, {})) as [string]
    const row = await testDb.db.kysely.selectFrom('registrations').select(['id', 'secret']).where('reference', '=', reference).executeTakeFirstOrThrow()
    key = { reference, secret: row.secret, id: row.id }
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  it('gives every delegate a pass of their own, and the pass page shows only name, event, days and code', async () => {
    const passes = (await registrationPasses(testDb, key.reference, key.secret))!
    expect(passes.map((pass) => pass.name)).toEqual(['Thandi Nkosi', 'Pieter van Wyk'])
    expect(new Set(passes.map((pass) => pass.code)).size).toBe(2)
    expect(new Set(passes.map((pass) => pass.token)).size).toBe(2)
    for (const pass of passes) {
      expect(pass.code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/)
      expect(pass.token.length).toBeGreaterThanOrEqual(43)
    }
    const page = await passPage(testDb, passes[0]!.token)
    expect(page).toEqual({ name: 'Thandi Nkosi', eventTitle: expect.any(String), days: expect.any(String), code: passes[0]!.code, online: false })
    expect(Object.keys(page!)).toEqual(['name', 'eventTitle', 'days', 'code', 'online'])
    expect(await passPage(testDb, 'not-a-token')).toBeUndefined()
    expect(await registrationPasses(testDb, key.reference, 'wrong-secret')).toBeUndefined()
  })

  it('says an online delegate’s pass page is for joining online, not for the door', async () => {
    const [onlineReference] = await register(testDb.db, { attendanceOption: 'online' })
    const row = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', onlineReference!).executeTakeFirstOrThrow()
    const [pass] = await passesOfRegistration(testDb.db.kysely, row.id)
    expect(await passPage(testDb, pass!.token)).toMatchObject({ online: true })
  })

  it('keeps a pass stable, and gives a new one when another person takes the delegate’s place', async () => {
    const before = await passesOfRegistration(testDb.db.kysely, key.id)
    expect(await passesOfRegistration(testDb.db.kysely, key.id)).toEqual(before)
    // A corrected name is the same person: the pass stays.
    await changeDelegate(
      testContext(testDb.db),
      { reference, delegate: '1', name: 'Thandi Nkosi-Mokoena', position: 'Legal Adviser', email: 'thandi@acme.example.com' },
      STAFF,
    )
    const corrected = await passesOfRegistration(testDb.db.kysely, key.id)
    expect(corrected[0]).toEqual({ ...before[0], name: 'Thandi Nkosi-Mokoena' })
    await changeDelegate(
      testContext(testDb.db),
      { reference, delegate: '2', name: 'Naledi Khumalo', position: 'Paralegal', email: 'naledi@acme.example.com' },
      STAFF,
    )
    const replaced = await passesOfRegistration(testDb.db.kysely, key.id)
    expect(replaced[1]!.code).not.toBe(before[1]!.code)
    expect(replaced[1]!.token).not.toBe(before[1]!.token)
    expect(await passPage(testDb, before[1]!.token)).toBeUndefined()
    expect((await passPage(testDb, replaced[1]!.token))!.name).toBe('Naledi Khumalo')
  })

  it('stops showing the pass page of a cancelled registration', async () => {
    const [pass] = await passesOfRegistration(testDb.db.kysely, key.id)
    await cancelRegistration(testContext(testDb.db), { reference, delegateIds: 'all' }, MANAGER)
    expect(await passPage(testDb, pass!.token)).toBeUndefined()
    expect(await registrationPasses(testDb, key.reference, key.secret)).toEqual([])
  })

  it('shows each delegate their QR code inline in their notice, and every pass in the registrant’s confirmation', async () => {
    const passes = await passesOfRegistration(testDb.db.kysely, key.id)
    const { sink, transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const toThandi = sink.received.find((mail) => mail.recipients.includes('thandi@acme.example.com'))!
      expect(toThandi.parsed.text).toContain(`pass ${passes[0]!.code}, https://events.example.com/test-pass/${passes[0]!.token}`)
      const image = toThandi.parsed.attachments.find((attachment) => attachment.contentType === 'image/png')!
      expect(image.cid).toBe(`pass-${passes[0]!.code}@events`)
      // mailparser puts an inline image's data in place of its cid: reference, as a mail reader shows it.
      expect(toThandi.parsed.html).toMatch(
        new RegExp(`<img src="data:image/png;base64,[^"]+" width="164" height="164" alt="QR code of pass ${passes[0]!.code}">`),
      )
      expect(decodeQr(image.content)).toBe(passes[0]!.code)

      const toRegistrant = sink.received.find((mail) => mail.recipients.includes('bookings@acme.example.com'))!
      expect(toRegistrant.parsed.text).toContain(`Thandi Nkosi: pass ${passes[0]!.code}`)
      expect(toRegistrant.parsed.text).toContain(`Pieter van Wyk: pass ${passes[1]!.code}`)
      const images = toRegistrant.parsed.attachments.filter((attachment) => attachment.contentType === 'image/png')
      expect(images.map((attachment) => decodeQr(attachment.content))).toEqual(passes.map((pass) => pass.code))
    } finally {
      await stop()
    }
  })
})
