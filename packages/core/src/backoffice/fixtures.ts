import type { CoreDatabase } from '../db/database.ts'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, registrationInput, SITE_NOW, TEST_STAFF, testAuditWriter, testSiteLinks } from '../test-support.ts'
import type { StaffActor, StaffCommandContext } from './command.ts'

/** The staff member the tests act as. */
export const STAFF: StaffActor = TEST_STAFF

/** How a stored row names the staff member who acted (`recordedBy`, `cancelledBy`). */
export const RECORDED_BY = { id: STAFF.id, name: STAFF.name }

/**
 * The back-office context the tests use: fixed events and settings, the business clock in early 2025, and the tests'
 * audit log (`testAuditRows`) for the commands' rows.
 */
export function testContext(db: CoreDatabase, now: () => Date = () => new Date('2025-03-02T08:00:00Z')): StaffCommandContext {
  return { db, catalog: fixedCatalog(), links: testSiteLinks(), now, siteNow: () => SITE_NOW, audit: testAuditWriter }
}

/** When `register` registers by the business clock: a month before the tests' today, so February's bank statements can pay them. */
export const REGISTERED_AT = new Date('2025-02-03T09:00:00+02:00')

/** Registers through the real registration service (one per override set) and answers the references in order. */
export async function register(db: CoreDatabase, ...overrides: Array<Record<string, unknown>>): Promise<string[]> {
  const service = { db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => REGISTERED_AT }
  const references: string[] = []
  for (const override of overrides) {
    const { receipt } = await createRegistration(service, registrationInput(override))
    references.push(receipt.reference)
  }
  return references
}
