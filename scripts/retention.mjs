// `pnpm privacy:retention`: the personal-data retention job, for cron (the site also runs it every six hours).
// Anonymises contact enquiries and training requests older than ENQUIRY_RETENTION_MONTHS (24 by default) and
// registrations whose tax invoice is more than five years old, and records what it did in the audit log; reads
// DATA_DIR / DATABASE_URL like the server.
import { readConfig } from '../packages/config/src/index.ts'
import { anonymiseExpiredPersonalData, openDatabase } from '../packages/core/src/index.ts'
import { createStaff } from '../packages/staff/src/index.ts'
import { createSiteLinks } from '../apps/site/app/lib/site-links.ts'

try {
  const { core: config, siteUrl } = readConfig(process.env)
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, startupWaitMs: config.databaseStartupWaitMs })
  try {
    const { enquiryRetentionMonths } = config
    const result = await anonymiseExpiredPersonalData({ db }, { enquiryRetentionMonths })
    if (result.enquiriesAnonymised + result.registrationsAnonymised > 0) {
      const staff = await createStaff({ db, links: createSiteLinks(siteUrl) })
      await staff.recordAudit({ actor: null, action: 'personal-data-anonymised', subjectType: 'retention-job', after: { ...result, enquiryRetentionMonths } })
    }
    console.log(
      `Retention: ${result.enquiriesAnonymised} enquiries and training requests older than ${enquiryRetentionMonths} months, and ${result.registrationsAnonymised} registrations past their invoices' five years, anonymised.`,
    )
  } finally {
    await db.close()
  }
} catch (error) {
  console.error(`Retention job failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
