import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { enqueueStaffMail } from '../outbox/enqueue.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { TEST_BACKENDS, openTestDatabase, useMailSink, type TestDatabase } from '../test-support.ts'
import { staffInvitationMail, staffPasswordResetMail } from './staff-mails.ts'

const LINK = 'https://events.example.com/admin/set-password?token=abc&x=<1>'
const context = { to: 'new.colleague@example.com', name: 'Naledi <Staff>', siteName: 'Example Events', link: LINK, validFor: '7 days' }

describe('staff e-mails', () => {
  it.each([
    ['invitation', staffInvitationMail, 'Your Example Events back-office account', 'Choose your password'],
    ['password reset', staffPasswordResetMail, 'Reset your Example Events back-office password', 'Choose a new password'],
  ] as const)('the %s carries the link in both parts, escaped in HTML', (_kind, render, subject, action) => {
    const mail = render(context)
    expect(mail.to).toEqual(['new.colleague@example.com'])
    expect(mail.subject).toBe(subject)
    expect(mail.text).toContain(`${action}: ${LINK}`)
    expect(mail.text).toContain('7 days')
    expect(mail.html).toContain('href="https://events.example.com/admin/set-password?token=abc&amp;x=&lt;1&gt;"')
    expect(mail.html).toContain('Naledi &lt;Staff&gt;')
  })
})

describe.each(TEST_BACKENDS)('enqueueStaffMail on %s', (backend) => {
  let testDb: TestDatabase
  const { sink, transport } = useMailSink()

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('queues the e-mail for the outbox worker, which delivers it', async () => {
    const now = new Date('2026-11-23T10:00:00Z')
    await enqueueStaffMail(testDb.db, staffInvitationMail(context), { topic: 'staff-invitation', sourceId: 'user-1', now })
    const row = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ topic: 'staff-invitation', source_id: 'user-1', status: 'pending', next_attempt_at: now.toISOString() })

    expect(await deliverDueMessages({ db: testDb.db, transport: transport(), now: () => now, log: () => undefined })).toEqual({
      sent: 1,
      retrying: 0,
      failed: 0,
    })
    expect(sink().received).toHaveLength(1)
    expect(sink().received[0]!.recipients).toEqual(['new.colleague@example.com'])
    expect(sink().received[0]!.parsed.subject).toBe('Your Example Events back-office account')
  })
})
