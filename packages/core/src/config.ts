import path from 'node:path'
import { DEFAULT_ENQUIRY_RETENTION_MONTHS } from './backoffice/personal-data.ts'

/** The settings the core reads from the environment. */
export interface CoreConfig {
  dataDir: string
  databaseUrl?: string
  smtpUrl?: string
  mailFrom: string
  /** Unset: mail goes to the contact e-mail of the site settings. */
  organiserEmail?: string
  /** ENQUIRY_RETENTION_MONTHS: how long contact enquiries and training requests are kept before they are anonymised. */
  enquiryRetentionMonths: number
  siteUrl: string
  /** SITE_DATE: the fixed "now" for registration rules; unset means the real time. */
  siteDate?: Date
  /** Form posts per minute per IP; 0 turns the limit off. */
  formRateLimit: number
  /** How long startup keeps retrying a PostgreSQL server it cannot reach, in milliseconds. */
  databaseStartupWaitMs: number
}

const DEFAULT_FORM_RATE_LIMIT = 20
const DEFAULT_DATABASE_STARTUP_WAIT_SECONDS = 60

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

/** Parses SITE_DATE: an ISO datetime, or a date (YYYY-MM-DD) meaning its start in Africa/Johannesburg. */
export function parseSiteDate(value: string): Date {
  const text = value.trim()
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00+02:00` : text)
  if (Number.isNaN(date.getTime())) throw new Error(`SITE_DATE is not a date: "${value}"; set it like 2025-03-01 or 2025-03-01T09:00:00+02:00, or leave it unset`)
  return date
}

/**
 * Reads DATA_DIR, DATABASE_URL, SMTP_URL, MAIL_FROM, ORGANISER_EMAIL, SITE_URL (or PORT), SITE_DATE, FORM_RATE_LIMIT
 * and DATABASE_STARTUP_WAIT_SECONDS.
 */
export function readCoreConfig(env: Readonly<Record<string, string | undefined>> = process.env): CoreConfig {
  const rateLimitText = nonEmpty(env.FORM_RATE_LIMIT)
  const formRateLimit = rateLimitText === undefined ? DEFAULT_FORM_RATE_LIMIT : Number(rateLimitText)
  if (!Number.isInteger(formRateLimit) || formRateLimit < 0) {
    throw new Error(`FORM_RATE_LIMIT must be a whole number of posts per minute (0 turns it off): ${rateLimitText}`)
  }
  const startupWaitText = nonEmpty(env.DATABASE_STARTUP_WAIT_SECONDS)
  const startupWaitSeconds = startupWaitText === undefined ? DEFAULT_DATABASE_STARTUP_WAIT_SECONDS : Number(startupWaitText)
  if (!Number.isFinite(startupWaitSeconds) || startupWaitSeconds < 0) {
    throw new Error(`DATABASE_STARTUP_WAIT_SECONDS must be a number of seconds: ${startupWaitText}`)
  }
  const retentionText = nonEmpty(env.ENQUIRY_RETENTION_MONTHS)
  const enquiryRetentionMonths = retentionText === undefined ? DEFAULT_ENQUIRY_RETENTION_MONTHS : Number(retentionText)
  if (!Number.isInteger(enquiryRetentionMonths) || enquiryRetentionMonths < 1) {
    throw new Error(`ENQUIRY_RETENTION_MONTHS must be a whole number of months, 1 or more: ${retentionText}`)
  }
  const databaseUrl = nonEmpty(env.DATABASE_URL)
  const smtpUrl = nonEmpty(env.SMTP_URL)
  const organiserEmail = nonEmpty(env.ORGANISER_EMAIL)
  const siteDate = nonEmpty(env.SITE_DATE)
  return {
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? './data'),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(smtpUrl ? { smtpUrl } : {}),
    mailFrom: nonEmpty(env.MAIL_FROM) ?? 'Events <no-reply@localhost>',
    ...(organiserEmail ? { organiserEmail } : {}),
    siteUrl: (nonEmpty(env.SITE_URL) ?? `http://localhost:${nonEmpty(env.PORT) ?? '3000'}`).replace(/\/+$/, ''),
    ...(siteDate ? { siteDate: parseSiteDate(siteDate) } : {}),
    formRateLimit,
    enquiryRetentionMonths,
    databaseStartupWaitMs: startupWaitSeconds * 1000,
  }
}
