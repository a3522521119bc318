import { createRegistration, recordBankTransfer, type StaffCommandContext } from '@events/core'
import {
  SITE_NOW,
  TEST_BACKENDS,
  TEST_STAFF,
  fixedCatalog,
  openTestDatabase,
  registrationInput,
  testSiteLinks,
  type TestDatabase,
} from '@events/core/test-support'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { staffAuditWriter } from './audit.ts'
import { createStaff, type Staff } from './staff.ts'

describe.each(TEST_BACKENDS)("core's staff commands write this audit log on %s", (backend) => {
  let testDb: TestDatabase
  let staff: Staff
  let context: StaffCommandContext
  let reference: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    staff = await createStaff({ db: testDb.db, links: testSiteLinks(), siteName: 'Example Events' })
    context = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW, audit: staffAuditWriter }
    ;({
      receipt: { reference },
    } = await createRegistration(context, registrationInput()))
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const transfer = (bankReference: string) => ({ reference, amount: '500.00', receivedOn: '2025-03-01', bankReference })

  it('keeps the row with the change: who, from which address, before and after', async () => {
    await recordBankTransfer(context, transfer('FNB 77'), TEST_STAFF)
    const { entries } = await staff.listAudit({ subjects: [{ subjectType: 'registration', subjectId: reference }] })
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'registration-payment-recorded',
        actor: { id: TEST_STAFF.id, email: TEST_STAFF.email },
        ipAddress: TEST_STAFF.ipAddress,
        before: { status: 'awaiting-payment', paidCents: 0, outstandingCents: 2_067_700 },
        after: expect.objectContaining({
          status: 'part-paid',
          paidCents: 50_000,
          bankTransfer: { amountCents: 50_000, receivedOn: '2025-03-01', bankReference: 'FNB 77' },
        }),
      }),
    ])
  })

  it('rolls the row back with a change that fails after it was written', async () => {
    let written = 0
    const failing: StaffCommandContext = {
      ...context,
      audit: async (transaction, row) => {
        await staffAuditWriter(transaction, row)
        written += 1
        throw new Error('the change failed after its audit row')
      },
    }
    await expect(recordBankTransfer(failing, transfer('FNB 78'), TEST_STAFF)).rejects.toThrow('the change failed after its audit row')
    expect(written).toBe(1)
    expect((await staff.listAudit()).entries.filter((entry) => entry.action === 'registration-payment-recorded')).toEqual([])
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toEqual([])
  })
})
