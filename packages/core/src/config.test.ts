import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseSiteDate, readCoreConfig } from './config.ts'

describe('readCoreConfig', () => {
  it('has defaults for a newcomer', () => {
    expect(readCoreConfig({})).toEqual({
      dataDir: path.resolve('./data'),
      mailFrom: 'Events <no-reply@localhost>',
      siteUrl: 'http://localhost:3000',
      formRateLimit: 20,
      enquiryRetentionMonths: 24,
      databaseStartupWaitMs: 60_000,
    })
  })

  it('reads every variable', () => {
    const config = readCoreConfig({
      DATA_DIR: '/var/lib/events',
      DATABASE_URL: 'postgres://127.0.0.1/events',
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'Example Events <events@example.com>',
      ORGANISER_EMAIL: 'bookings@example.com',
      SITE_URL: 'https://events.example.com/',
      SITE_DATE: '2025-03-01',
      FORM_RATE_LIMIT: '0',
      DATABASE_STARTUP_WAIT_SECONDS: '2.5',
      ENQUIRY_RETENTION_MONTHS: '36',
    })
    expect(config).toEqual({
      dataDir: '/var/lib/events',
      databaseUrl: 'postgres://127.0.0.1/events',
      smtpUrl: 'smtp://mail.example.com:587',
      mailFrom: 'Example Events <events@example.com>',
      organiserEmail: 'bookings@example.com',
      siteUrl: 'https://events.example.com',
      siteDate: new Date('2025-02-28T22:00:00Z'),
      formRateLimit: 0,
      enquiryRetentionMonths: 36,
      databaseStartupWaitMs: 2_500,
    })
  })

  it.each(['-1', '2.5', 'twenty'])('refuses FORM_RATE_LIMIT=%s', (value) => {
    expect(() => readCoreConfig({ FORM_RATE_LIMIT: value })).toThrow(/FORM_RATE_LIMIT/)
  })

  it.each(['0', '1.5', 'two years'])('refuses ENQUIRY_RETENTION_MONTHS=%s', (value) => {
    expect(() => readCoreConfig({ ENQUIRY_RETENTION_MONTHS: value })).toThrow(/ENQUIRY_RETENTION_MONTHS/)
  })

  it.each(['-1', 'a minute'])('refuses DATABASE_STARTUP_WAIT_SECONDS=%s', (value) => {
    expect(() => readCoreConfig({ DATABASE_STARTUP_WAIT_SECONDS: value })).toThrow(/DATABASE_STARTUP_WAIT_SECONDS/)
  })
})

describe('parseSiteDate', () => {
  it('reads datetimes and refuses nonsense', () => {
    expect(parseSiteDate('2025-06-13T23:59:00+02:00').toISOString()).toBe('2025-06-13T21:59:00.000Z')
    expect(() => parseSiteDate('soon')).toThrow(/SITE_DATE/)
  })
})
