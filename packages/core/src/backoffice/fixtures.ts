import type { CoreDatabase } from '../db/database.ts'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, registrationInput, SITE_NOW, testSiteLinks } from '../test-support.ts'
import type { BackOfficeContext } from './context.ts'

export const STAFF = { id: 'staff-1', name: 'Nomsa Dlamini' }

/** The back-office context the tests use: fixed events and settings, the business clock in early 2025. */
export function testContext(db: CoreDatabase, now: () => Date = () => new Date('2025-03-02T08:00:00Z')): BackOfficeContext {
  return { db, catalog: fixedCatalog(), links: testSiteLinks(), now, siteNow: () => SITE_NOW }
}

/** Registers through the real registration service (one per override set) and answers the references in order. */
export async function register(db: CoreDatabase, ...overrides: Array<Record<string, unknown>>): Promise<string[]> {
  const service = { db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
  const references: string[] = []
  for (const override of overrides) {
    const { receipt } = await createRegistration(service, registrationInput(override))
    references.push(receipt.reference)
  }
  return references
}
