// `pnpm privacy:retention`: the personal-data retention job, for cron (the site also runs it every six hours).
// Anonymises contact enquiries and training requests older than ENQUIRY_RETENTION_MONTHS (24 by default) and
// registrations whose tax invoice is more than five years old; reads DATA_DIR / DATABASE_URL like the server.
import { anonymiseExpiredPersonalData, openDatabase, readCoreConfig } from '../packages/core/src/index.ts'

try {
  const config = readCoreConfig(process.env)
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, startupWaitMs: config.databaseStartupWaitMs })
  try {
    const result = await anonymiseExpiredPersonalData({ db }, { enquiryRetentionMonths: config.enquiryRetentionMonths })
    console.log(
      `Retention: ${result.enquiriesAnonymised} enquiries and training requests older than ${config.enquiryRetentionMonths} months, and ${result.registrationsAnonymised} registrations past their invoices' five years, anonymised.`,
    )
  } finally {
    await db.close()
  }
} catch (error) {
  console.error(`Retention job failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
