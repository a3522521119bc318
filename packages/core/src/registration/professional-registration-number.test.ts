import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RegistrationEvent } from '../catalog.ts'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { MANAGER, REGISTERED_AT, STAFF, testContext } from '../backoffice/fixtures.ts'
import { erasePersonalData } from '../backoffice/personal-data.ts'
import { changeDelegate } from '../backoffice/registration-changes.ts'
import { certificatePdf, certificatesOfRegistration, issueDueCertificates } from '../event-days/certificates.ts'
import { checkInDelegate } from '../event-days/check-in.ts'
import {
  fixedCatalog,
  LEGAL_OPINION,
  openTestDatabase,
  pdftotext,
  registrationInput,
  RESILIENCE,
  TEST_BACKENDS,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { createRegistration } from './commands.ts'
import { professionalRegistrationNumbers, saveProfessionalRegistrationNumber } from './professional-registration-number.ts'
import { getRegistrationByReferenceAndSecret } from './queries.ts'

const ACCREDITED: RegistrationEvent = {
  ...LEGAL_OPINION,
  cpd: { accreditingBody: 'Legal Practice Council', accreditationNumber: 'LPC-CPD-2025-0173', category: null },
}
const catalog = fixedCatalog([ACCREDITED, RESILIENCE])
const FORTY = 'LPC-'.padEnd(40, '7')

describe.each(TEST_BACKENDS)('professional registration numbers on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const service = (now = REGISTERED_AT) => ({ db: testDb.db, catalog, links: testSiteLinks(), siteNow: () => now })

  async function registerWith(numbers: string[], overrides: Record<string, unknown> = {}) {
    const input = registrationInput(overrides) as { delegates: Array<Record<string, string>> }
    const delegates = input.delegates.map((delegate, index) => ({ ...delegate, professionalRegistrationNumber: numbers[index] ?? '' }))
    return (await createRegistration(service(), { ...input, delegates })).receipt
  }

  async function storedNumbers() {
    return (await testDb.db.kysely.selectFrom('registration_delegates').select('professional_registration_number').orderBy('ordinal').execute()).map(
      (row) => row.professional_registration_number,
    )
  }

  it('keeps a number per delegate of an accredited event, optional, and refuses one over 40 characters, storing nothing', async () => {
    await expect(registerWith([`${FORTY}8`])).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: 'delegates.0.professionalRegistrationNumber', code: 'too-long' })],
    })
    expect(await testDb.db.kysely.selectFrom('registrations').select('id').execute()).toEqual([])
    const receipt = await registerWith([` ${FORTY} `])
    expect(await storedNumbers()).toEqual([FORTY, null])
    const details = await getRegistrationByReferenceAndSecret({ db: testDb.db }, receipt.reference, receipt.secret)
    expect(details!.delegates.map((delegate) => delegate.professionalRegistrationNumber)).toEqual([FORTY, undefined])
  })

  it('stores no number for an event no CPD body accredits', async () => {
    await registerWith(['SAIPA 123'], { event: 'Resilience', code: 'ERC2025' })
    expect(await storedNumbers()).toEqual([null, null])
  })

  it('lets the status page change a number until the event ends, refusing a long one, another link and an event without accreditation', async () => {
    const receipt = await registerWith(['LPC 1'])
    const save = (input: Record<string, string>, now = REGISTERED_AT, secret = receipt.secret) =>
      saveProfessionalRegistrationNumber(service(now), receipt.reference, secret, input)
    expect(await professionalRegistrationNumbers(service(), receipt.reference, receipt.secret)).toEqual({
      open: true,
      delegates: [
        { delegate: 1, name: 'Thandi Nkosi', professionalRegistrationNumber: 'LPC 1' },
        { delegate: 2, name: 'Pieter van Wyk', professionalRegistrationNumber: '' },
      ],
    })
    expect(await save({ delegate: '2', professionalRegistrationNumber: 'LPC 2' })).toEqual({ name: 'Pieter van Wyk', professionalRegistrationNumber: 'LPC 2' })
    expect(await save({ delegate: '1', professionalRegistrationNumber: '' })).toEqual({ name: 'Thandi Nkosi', professionalRegistrationNumber: '' })
    await expect(save({ delegate: '2', professionalRegistrationNumber: `${FORTY}8` })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: 'professionalRegistrationNumber', code: 'too-long' })],
    })
    expect(await save({ delegate: '3', professionalRegistrationNumber: 'LPC 3' })).toBeUndefined()
    expect(await save({ delegate: '1', professionalRegistrationNumber: 'LPC 9' }, REGISTERED_AT, 'wrong-secret')).toBeUndefined()
    const afterTheEvent = new Date('2025-07-05T08:00:00Z')
    await expect(save({ delegate: '2', professionalRegistrationNumber: 'LPC 9' }, afterTheEvent)).rejects.toMatchObject({ code: 'registration-number-closed' })
    expect((await professionalRegistrationNumbers(service(afterTheEvent), receipt.reference, receipt.secret))!.open).toBe(false)
    expect(await storedNumbers()).toEqual([null, 'LPC 2'])

    const other = await registerWith([], { event: 'Resilience', code: 'ERC2025' })
    expect(await professionalRegistrationNumbers(service(), other.reference, other.secret)).toBeUndefined()
    await expect(
      saveProfessionalRegistrationNumber(service(), other.reference, other.secret, { delegate: '1', professionalRegistrationNumber: 'X' }),
    ).rejects.toMatchObject({
      code: 'registration-number-not-asked',
    })
  })

  it('is not inherited by another person taking a delegate’s place, and goes with an erasure', async () => {
    const receipt = await registerWith(['LPC 1', 'LPC 2'])
    await changeDelegate(
      testContext(testDb.db),
      { reference: receipt.reference, delegate: '1', name: 'Lerato Dube', position: 'Attorney', email: 'lerato@acme.example.com' },
      STAFF,
    )
    expect(await storedNumbers()).toEqual([null, 'LPC 2'])
    // After the event, when an erasure takes a delegate's details.
    const afterTheEvent = () => new Date('2025-07-05T08:00:00Z')
    await erasePersonalData(
      { ...testContext(testDb.db, afterTheEvent), siteNow: afterTheEvent, catalog },
      { email: 'pieter@acme.example.com', confirm: true },
      MANAGER,
    )
    expect(await storedNumbers()).toEqual([null, null])
  })

  it('prints the number on the delegate’s certificate and keeps it with it', async () => {
    const receipt = await registerWith(['LPC 12345'])
    const registration = await testDb.db.kysely.selectFrom('registrations').select(['id', 'total_cents']).executeTakeFirstOrThrow()
    await recordBankTransfer(
      { ...testContext(testDb.db), catalog },
      { reference: receipt.reference, amount: (registration.total_cents / 100).toFixed(2), receivedOn: '2025-03-01', bankReference: 'B1' },
      STAFF,
    )
    const delegates = await testDb.db.kysely.selectFrom('registration_delegates').select('id').orderBy('ordinal').execute()
    const onTheDay = { ...testContext(testDb.db, () => new Date('2025-07-03T06:10:00Z')), siteNow: () => new Date('2025-07-03T06:10:00Z'), catalog }
    for (const delegate of delegates) await checkInDelegate(onTheDay, { eventId: LEGAL_OPINION.id, day: '2025-07-03', delegateId: delegate.id }, STAFF)
    const after = { ...testContext(testDb.db, () => new Date('2025-07-05T08:00:00Z')), siteNow: () => new Date('2025-07-05T08:00:00Z'), catalog }
    expect(await issueDueCertificates(after)).toBe(2)
    const [pieter, thandi] = await certificatesOfRegistration(testDb.db.kysely, registration.id)
    expect(thandi!.details!.professionalRegistrationNumber).toBe('LPC 12345')
    expect(pieter!.details!.professionalRegistrationNumber).toBeUndefined()
    const links = testSiteLinks()
    expect(pdftotext((await certificatePdf({ db: testDb.db, links }, thandi!.number))!)).toContain('Professional registration number: LPC 12345')
    expect(pdftotext((await certificatePdf({ db: testDb.db, links }, pieter!.number))!)).not.toContain('Professional registration number')
  })
})
