import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { enqueueMails, type QueuedMail } from './enqueue.ts'
import { outboxHealth } from './health.ts'

const MAIL: QueuedMail = { topic: 'test', mail: { to: ['someone@example.com'], subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' } }

describe.each(TEST_BACKENDS)('outboxHealth on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  async function queue(source: string, at: string, count = 1): Promise<void> {
    await testDb.db.writeTransaction((transaction) =>
      enqueueMails(
        transaction,
        source,
        Array.from({ length: count }, () => MAIL),
        new Date(at),
      ),
    )
  }

  async function setStatus(source: string, status: 'sending' | 'sent' | 'failed' | 'uncertain'): Promise<void> {
    await testDb.db.kysely.updateTable('outbox_messages').set({ status }).where('source_id', '=', source).execute()
  }

  it('reports an empty outbox as nothing waiting', async () => {
    expect(await outboxHealth(testDb.db)).toEqual({ pending: 0, oldestPendingAgeSeconds: 0, failed: 0, uncertain: 0 })
  })

  it('counts waiting (being sent too), failed and uncertain e-mails and ages the oldest waiting one, leaving sent ones out', async () => {
    await queue('sent-long-ago', '2025-03-01T07:00:00.000Z', 3)
    await setStatus('sent-long-ago', 'sent')
    await queue('given-up', '2025-03-01T07:30:00.000Z', 2)
    await setStatus('given-up', 'failed')
    await queue('interrupted', '2025-03-01T07:40:00.000Z', 4)
    await setStatus('interrupted', 'uncertain')
    await queue('oldest-waiting', '2025-03-01T08:00:00.000Z', 2)
    await setStatus('oldest-waiting', 'sending')
    await queue('older-waiting', '2025-03-01T08:00:30.000Z')
    await queue('newest-waiting', '2025-03-01T08:01:30.000Z')

    expect(await outboxHealth(testDb.db, new Date('2025-03-01T08:02:00.500Z'))).toEqual({ pending: 4, oldestPendingAgeSeconds: 120.5, failed: 2, uncertain: 4 })
  })
})
