import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from './test-support.ts'
import { recordFirstDelivery } from './webhook-deliveries.ts'

const TEN_MINUTES = 10 * 60_000

describe.each(TEST_BACKENDS)('webhook deliveries on %s', (backend) => {
  let testDb: TestDatabase
  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('says a delivery is new once, whichever instance is asked and whichever of its keys comes back', async () => {
    const other = await testDb.openAnother()
    const at = new Date('2026-11-27T08:00:00Z')
    expect(await recordFirstDelivery(testDb.db, ['id:d1', 'signature:s1'], at, TEN_MINUTES)).toBe(true)
    expect(await recordFirstDelivery(other, ['id:d1', 'signature:s2'], at, TEN_MINUTES)).toBe(false)
    expect(await recordFirstDelivery(other, ['signature:s1'], at, TEN_MINUTES)).toBe(false)
    expect(await recordFirstDelivery(other, ['id:d2', 'signature:s3'], at, TEN_MINUTES)).toBe(true)
  })

  it('acts once when two instances get the same delivery at the same moment', async () => {
    const other = await testDb.openAnother()
    const at = new Date('2026-11-27T08:00:00Z')
    const answers = await Promise.all(
      [testDb.db, other, testDb.db, other].map((db) => recordFirstDelivery(db, ['id:together', 'signature:together'], at, TEN_MINUTES)),
    )
    expect(answers.filter(Boolean)).toHaveLength(1)
  })

  it('forgets a key once it has not been seen for the keeping time, counted from its last sighting', async () => {
    const start = new Date('2026-11-27T08:00:00Z')
    const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000)
    expect(await recordFirstDelivery(testDb.db, ['id:d1'], start, TEN_MINUTES)).toBe(true)
    expect(await recordFirstDelivery(testDb.db, ['id:d1'], later(8), TEN_MINUTES)).toBe(false)
    expect(await recordFirstDelivery(testDb.db, ['id:other'], later(17), TEN_MINUTES)).toBe(true)
    expect(await recordFirstDelivery(testDb.db, ['id:d1'], later(17), TEN_MINUTES)).toBe(false)
    expect(await recordFirstDelivery(testDb.db, ['id:other'], later(40), TEN_MINUTES)).toBe(true)
  })
})
