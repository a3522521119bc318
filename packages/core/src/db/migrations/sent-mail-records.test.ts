import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-27T05-sent-mail-records on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('records what e-mails stored rendered and already sent were, and leaves the others unrecorded', async () => {
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    expect((await migrator.migrateTo('2026-11-26T05-statement-reconciliation')).error).toBeUndefined()
    const rendered = JSON.stringify({
      to: ['mpho@example.com'],
      subject: 'Re: your enquiry',
      text: 'Hello',
      html: '<p>Hello</p>',
      attachments: [{ filename: 'agenda.pdf', contentType: 'application/pdf', content: '' }],
    })
    const template = JSON.stringify({ template: 'registration.delegate', delegate: 0 })
    const rows = [
      ['sent-rendered', rendered, 'sent'],
      ['sent-template', template, 'sent'],
      ['pending-rendered', rendered, 'pending'],
    ] as const
    for (const [id, mail, status] of rows) {
      await sql`insert into outbox_messages (id, topic, source_id, mail, status, attempts, next_attempt_at, created_at)
                values (${id}, 'enquiry.reply', 'source-1', ${mail}, ${status}, 1, '2025-03-01T08:00:00.000Z', '2025-03-01T08:00:00.000Z')`.execute(kysely)
    }

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const records = await kysely.selectFrom('outbox_messages').select(['id', 'sent_to', 'sent_subject', 'sent_attachments']).orderBy('id').execute()
    expect(records).toEqual([
      { id: 'pending-rendered', sent_to: null, sent_subject: null, sent_attachments: null },
      { id: 'sent-rendered', sent_to: '["mpho@example.com"]', sent_subject: 'Re: your enquiry', sent_attachments: '["agenda.pdf"]' },
      { id: 'sent-template', sent_to: null, sent_subject: null, sent_attachments: null },
    ])
  })
})
