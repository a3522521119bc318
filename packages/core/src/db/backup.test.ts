import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRegistration } from '../registration/commands.ts'
import { SITE_NOW, fixedCatalog, registrationInput, testSiteLinks, temporaryDirectory } from '../test-support.ts'
import { backupDataDirectory, sqliteIntegrity } from './backup.ts'
import type { CoreDatabase } from './database.ts'
import { openDatabase } from './open-database.ts'

describe('backupDataDirectory', () => {
  let dataDir: ReturnType<typeof temporaryDirectory>
  let backups: ReturnType<typeof temporaryDirectory>
  let db: CoreDatabase

  beforeEach(async () => {
    dataDir = temporaryDirectory()
    backups = temporaryDirectory()
    db = await openDatabase({ dataDir: dataDir.dir })
  })

  afterEach(async () => {
    await db.close()
    dataDir.remove()
    backups.remove()
  })

  async function register(count: number): Promise<string[]> {
    const service = { db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
    const references: string[] = []
    for (let index = 0; index < count; index++) {
      const { receipt } = await createRegistration(service, registrationInput({ companyName: `Company ${index}` }))
      references.push(receipt.reference)
    }
    return references
  }

  it('copies the open database and the written e-mails into private files that SQLite finds sound', async () => {
    const references = await register(3)
    mkdirSync(path.join(dataDir.dir, 'mail'))
    writeFileSync(path.join(dataDir.dir, 'mail', 'message-1.eml'), 'Subject: one\n\nHello')
    // A message still being written is not part of the backup.
    writeFileSync(path.join(dataDir.dir, 'mail', 'message-2.eml.tmp'), 'Subject: two')
    const destination = path.join(backups.dir, 'nightly')

    const result = await backupDataDirectory({ dataDir: dataDir.dir, destination })
    // The site keeps writing while and after the copy is made; the copy is what it was.
    await register(1)

    expect(result).toEqual({ databaseFile: path.join(destination, 'events.sqlite'), mailFiles: 1, registrations: 3 })
    expect(readdirSync(destination).sort()).toEqual(['events.sqlite', 'mail'])
    expect(readdirSync(path.join(destination, 'mail'))).toEqual(['message-1.eml'])
    expect(statSync(destination).mode & 0o777).toBe(0o700)
    for (const file of ['events.sqlite', 'mail/message-1.eml']) expect(statSync(path.join(destination, file)).mode & 0o777).toBe(0o600)

    const copy = new DatabaseSync(result.databaseFile, { readOnly: true })
    try {
      expect(sqliteIntegrity(copy)).toBe('ok')
      expect(copy.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'delete' })
      expect(
        copy
          .prepare('SELECT reference FROM registrations ORDER BY created_at')
          .all()
          .map((row) => row.reference),
      ).toEqual(references)
    } finally {
      copy.close()
    }
  })

  it('refuses a data directory without a database and a destination that already holds one', async () => {
    await expect(backupDataDirectory({ dataDir: backups.dir, destination: path.join(backups.dir, 'x') })).rejects.toThrow(/no database/)
    await backupDataDirectory({ dataDir: dataDir.dir, destination: backups.dir })
    await expect(backupDataDirectory({ dataDir: dataDir.dir, destination: backups.dir })).rejects.toThrow(/already exists/)
  })
})
