import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCoreConfig } from './config.ts'
import { startCore } from './core.ts'
import { fixedCatalog, registrationInput, temporaryDirectory } from './test-support.ts'

describe('startCore', () => {
  it('wires a newcomer setup: SQLite and .eml files under DATA_DIR, SITE_DATE for the rules', async () => {
    const { dir, remove } = temporaryDirectory()
    const lines: string[] = []
    const config = readCoreConfig({ DATA_DIR: dir, SITE_DATE: '2025-03-01', SITE_URL: 'https://events.example.com', FORM_RATE_LIMIT: '2' })
    const core = await startCore({ config, catalog: fixedCatalog(), log: (line) => lines.push(line) })
    try {
      const { receipt } = await core.registrations.createRegistration(registrationInput())
      expect(receipt.total).toBe('20677.00')
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

      expect([1, 2, 3].map(() => core.formRateLimiter.check('198.51.100.1').allowed)).toEqual([true, true, false])
    } finally {
      await core.close()
      remove()
    }
  })
})
