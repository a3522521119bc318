// `pnpm privacy:retention`, as cron runs it: old enquiries in a real SQLite data directory are anonymised, recent ones
// kept, what was done recorded in the audit log, and a second run changes nothing.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../packages/core/src/index.ts'
import { repoRoot } from '../support/site-server.ts'

let dataDir: string

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-retention-'))
})
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

function runRetention(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['-s', 'privacy:retention'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, output }))
  })
}

async function storeEnquiry(id: string, createdAt: string): Promise<void> {
  const db = await openDatabase({ dataDir })
  try {
    await db.kysely
      .insertInto('contact_enquiries')
      .values({
        id,
        full_name: 'Naledi Dlamini',
        company_name: null,
        email: 'naledi@client.test',
        phone: '+27 82 555 0101',
        interest: 'Workshop',
        message: 'Parking?',
        created_at: createdAt,
      })
      .execute()
  } finally {
    await db.close()
  }
}

describe('pnpm privacy:retention', () => {
  it('anonymises enquiries older than ENQUIRY_RETENTION_MONTHS, audits it, and finds nothing more the second time', async () => {
    const now = Date.now()
    await storeEnquiry('old', new Date(now - 400 * 24 * 3600 * 1000).toISOString())
    await storeEnquiry('recent', new Date(now - 100 * 24 * 3600 * 1000).toISOString())

    const first = await runRetention({ ENQUIRY_RETENTION_MONTHS: '12' })
    expect(first.output.trim()).toBe(
      "Retention: 1 enquiries and training requests older than 12 months, and 0 registrations past their invoices' five years, anonymised.",
    )
    expect(first.code).toBe(0)
    const database = new DatabaseSync(path.join(dataDir, 'events.sqlite'))
    try {
      expect(database.prepare('select id, full_name, email from contact_enquiries order by id').all()).toEqual([
        { id: 'old', full_name: '[anonymised]', email: '' },
        { id: 'recent', full_name: 'Naledi Dlamini', email: 'naledi@client.test' },
      ])
      const audit = database.prepare("select action, subject_type, after_json from staff_audit_log where action = 'personal-data-anonymised'").all()
      expect(audit).toEqual([
        {
          action: 'personal-data-anonymised',
          subject_type: 'retention-job',
          after_json: JSON.stringify({ enquiriesAnonymised: 1, registrationsAnonymised: 0, enquiryRetentionMonths: 12 }),
        },
      ])
    } finally {
      database.close()
    }

    const second = await runRetention({ ENQUIRY_RETENTION_MONTHS: '12' })
    expect(second.output).toContain('Retention: 0 enquiries')
    expect((await runRetention({ ENQUIRY_RETENTION_MONTHS: 'soon' })).code).toBe(1)
  })
})
