import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { dashboard } from './backoffice/dashboard.ts'
import { listRegistrations } from './backoffice/registrations-list.ts'
import { delegateListEvents } from './backoffice/delegate-list.ts'
import { startCore } from './core.ts'
import { createRegistration } from './registration/commands.ts'
import { DataDirectoryError } from './private-files.ts'
import { fixedCatalog, registrationInput, temporaryDirectory, testCoreConfig, testSiteLinks } from './test-support.ts'

const links = testSiteLinks()

describe('startCore', () => {
  it('wires a newcomer setup: SQLite and .eml files under DATA_DIR, SITE_DATE for the rules', async () => {
    const { dir, remove } = temporaryDirectory()
    const lines: string[] = []
    const config = testCoreConfig({ dataDir: dir, siteDate: new Date('2025-03-01T00:00:00+02:00'), formRateLimit: 2 })
    const core = await startCore({ config, catalog: fixedCatalog(), links, log: (line) => lines.push(line) })
    try {
      const { receipt } = await createRegistration(core.registrations, registrationInput())
      expect(receipt.total).toBe('20677.00')
      // The back office reads the same database by the same business clock: SITE_DATE puts the event ahead.
      expect(await delegateListEvents(core.backOffice)).toMatchObject([{ slug: 'legalOpinion', registrations: 1, delegates: 2, past: false }])
      expect(existsSync(path.join(dir, 'events.sqlite'))).toBe(true)

      const mailDir = path.join(dir, 'mail')
      const deadline = Date.now() + 10_000
      while (!(existsSync(mailDir) && readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length === 4)) {
        if (Date.now() > deadline) throw new Error('the outbox did not write the e-mails')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const emls = readdirSync(mailDir).map((name) => readFileSync(path.join(mailDir, name), 'utf8'))
      expect(emls.some((eml) => eml.includes(`Subject: Legal Opinion Delegate Registration ${receipt.reference}`))).toBe(true)
      expect(lines.filter((line) => line.includes('.eml'))).toHaveLength(4)

      const decisions = []
      for (let post = 0; post < 3; post++) decisions.push((await core.formRateLimiter.check('198.51.100.1')).allowed)
      expect(decisions).toEqual([true, true, false])

      // The back office reads the same database, with SITE_DATE deciding which events are still to come.
      expect(core.backOffice.links).toBe(links)
      expect((await listRegistrations(core.backOffice, { search: receipt.reference })).rows.map((row) => row.reference)).toEqual([receipt.reference])
      expect((await dashboard(core.backOffice)).events).toMatchObject([{ registrations: 1, awaitingCents: 2_067_700 }])
    } finally {
      await core.close()
      remove()
    }
  })

  it('leaves the outbox stopped until it is started, and checks the database with a write it commits', async () => {
    const { dir, remove } = temporaryDirectory()
    const config = testCoreConfig({ dataDir: dir, siteDate: new Date('2025-03-01T00:00:00+02:00') })
    const core = await startCore({ config, catalog: fixedCatalog(), links, log: () => undefined, startOutbox: false, instanceName: 'site-a' })
    const mailDir = path.join(dir, 'mail')
    const written = () => (existsSync(mailDir) ? readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length : 0)
    try {
      await createRegistration(core.registrations, registrationInput())
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(written()).toBe(0)
      core.outbox.start()
      const deadline = Date.now() + 10_000
      while (written() < 4) {
        if (Date.now() > deadline) throw new Error('the outbox did not write the e-mails once started')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }

      await core.checkDatabase()
      const rows = await core.db.kysely.selectFrom('readiness_checks').selectAll().execute()
      expect(rows).toEqual([{ instance: 'site-a', checked_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }])
    } finally {
      await core.close()
      remove()
    }
  })

  it('tells of each new registration with its payment method, not of a repeated submission', async () => {
    const { dir, remove } = temporaryDirectory()
    const created: string[] = []
    const config = testCoreConfig({ dataDir: dir, siteDate: new Date('2025-03-01T00:00:00+02:00') })
    const core = await startCore({
      config,
      catalog: fixedCatalog(),
      links,
      log: () => undefined,
      onRegistrationCreated: (result) => created.push(result.paymentMethod),
    })
    try {
      await createRegistration(core.registrations, registrationInput(), { idempotencyKey: 'form-token-1' })
      await createRegistration(core.registrations, registrationInput(), { idempotencyKey: 'form-token-1' })
      await createRegistration(core.registrations, registrationInput({ paymentMethod: 'Credit/Debit Card', companyName: 'Other Co' }))
      expect(created).toEqual(['bank-transfer', 'card'])
    } finally {
      await core.close()
      remove()
    }
  })
})

describe('DATA_DIR and the files in it', () => {
  function modeOf(file: string): string {
    return (statSync(file).mode & 0o777).toString(8)
  }

  it('creates DATA_DIR 0700 and keeps the SQLite files and stored e-mails 0600, whatever the umask', async () => {
    const { dir, remove } = temporaryDirectory()
    // With no umask, anything left to the defaults would be readable (and writable) by every user.
    const previousUmask = process.umask(0)
    const dataDir = path.join(dir, 'site', 'data')
    const core = await startCore({
      config: testCoreConfig({ dataDir, siteDate: new Date('2025-03-01T00:00:00+02:00') }),
      catalog: fixedCatalog(),
      links,
      log: () => {},
    })
    try {
      await createRegistration(core.registrations, registrationInput())
      const mailDir = path.join(dataDir, 'mail')
      const deadline = Date.now() + 10_000
      while (!(existsSync(mailDir) && readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length === 4)) {
        if (Date.now() > deadline) throw new Error('the outbox did not write the e-mails')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect([path.join(dir, 'site'), dataDir, mailDir].map(modeOf)).toEqual(['700', '700', '700'])
      const files = ['events.sqlite', 'events.sqlite-wal', 'events.sqlite-shm'].map((name) => path.join(dataDir, name))
      files.push(...readdirSync(mailDir).map((name) => path.join(mailDir, name)))
      expect(files.map((file) => [path.basename(file), modeOf(file)])).toEqual(files.map((file) => [path.basename(file), '600']))
    } finally {
      process.umask(previousUmask)
      await core.close()
      remove()
    }
  })

  it('makes a database and a shared-memory file left readable by an earlier version 0600', async () => {
    const { dir, remove } = temporaryDirectory()
    const config = testCoreConfig({ dataDir: dir, smtpUrl: 'smtp://127.0.0.1:9' })
    try {
      await (await startCore({ config, catalog: fixedCatalog(), links, log: () => {} })).close()
      const database = path.join(dir, 'events.sqlite')
      chmodSync(database, 0o644)
      // What a crash leaves beside the database: SQLite reuses the file as it finds it.
      writeFileSync(`${database}-shm`, Buffer.alloc(32 * 1024))
      chmodSync(`${database}-shm`, 0o644)
      const core = await startCore({ config, catalog: fixedCatalog(), links, log: () => {} })
      try {
        expect([modeOf(database), modeOf(`${database}-shm`)]).toEqual(['600', '600'])
      } finally {
        await core.close()
      }
    } finally {
      remove()
    }
  })

  it.each([
    ['a file', (dir: string) => path.join(dir, 'file')],
    ['below a file', (dir: string) => path.join(dir, 'file', 'data')],
  ])('refuses a DATA_DIR that is %s with what to change', async (_label, dataDirIn) => {
    const { dir, remove } = temporaryDirectory()
    try {
      writeFileSync(path.join(dir, 'file'), 'not a directory')
      const dataDir = dataDirIn(dir)
      const started = startCore({ config: testCoreConfig({ dataDir }), catalog: fixedCatalog(), links, log: () => {} })
      await expect(started).rejects.toThrow(DataDirectoryError)
      await expect(started).rejects.toThrow(
        `DATA_DIR ${dataDir} is not a directory (it, or a folder above it, is a file): set DATA_DIR to a directory the server may write to`,
      )
    } finally {
      remove()
    }
  })
})
