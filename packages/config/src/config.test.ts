import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, EMBEDDED_PREVIEW_DATE, parseSiteDate, readConfig } from './config.ts'

describe('readConfig', () => {
  it('has defaults for a newcomer', () => {
    const config = readConfig({})
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      trustProxy: 'loopback',
      logLevel: 'info',
      nodeEnv: undefined,
      contentDatasetPath: undefined,
      content: {},
    })
    expect(config.core).toEqual({
      dataDir: path.resolve('./data'),
      mailFrom: 'Events <no-reply@localhost>',
      siteDate: new Date(EMBEDDED_PREVIEW_DATE),
      formRateLimit: 20,
      enquiryRetentionMonths: 24,
      waitingListOfferHours: 48,
      joiningMailDaysBefore: 3,
      databaseStartupWaitMs: 60_000,
      databasePoolMax: 10,
      migrateOnStart: true,
    })
    expect(config).toMatchObject({ shutdownDrainMs: 2_000, shutdownGraceMs: 10_000, healthPort: undefined, readyNeedsDatabase: false })
  })

  it('takes a relative DATA_DIR and CONTENT_DATASET_PATH from where the command was started: INIT_CWD under pnpm, else the working directory', () => {
    // pnpm runs every script from the repository root and names the directory the command was typed in INIT_CWD.
    expect(readConfig({ INIT_CWD: '/home/newcomer/events' }).core.dataDir).toBe('/home/newcomer/events/data')
    const typedIn = readConfig({ INIT_CWD: '/srv/events/ops', DATA_DIR: '../state', CONTENT_DATASET_PATH: 'content/site.ndjson' })
    expect(typedIn.core.dataDir).toBe('/srv/events/state')
    expect(typedIn.contentDatasetPath).toBe('/srv/events/ops/content/site.ndjson')
    expect(readConfig({ INIT_CWD: '/srv/events', DATA_DIR: '/var/lib/events' }).core.dataDir).toBe('/var/lib/events')
    expect(readConfig({ DATA_DIR: 'state' }).core.dataDir).toBe(path.join(process.cwd(), 'state'))
  })

  it('reads the pool size, the migration switch and the shutdown bounds, and refuses nonsense in them', () => {
    const config = readConfig({
      DATABASE_POOL_MAX: '4',
      MIGRATE_ON_START: '0',
      SHUTDOWN_DRAIN_SECONDS: '0.5',
      SHUTDOWN_GRACE_SECONDS: '20',
      HEALTH_PORT: '3101',
      READY_NEEDS_DATABASE: '1',
    })
    expect(config.core).toMatchObject({ databasePoolMax: 4, migrateOnStart: false })
    expect(config).toMatchObject({ shutdownDrainMs: 500, shutdownGraceMs: 20_000, healthPort: 3101, readyNeedsDatabase: true })
    expect(() => readConfig({ HEALTH_PORT: 'health' })).toThrow(/HEALTH_PORT must be a whole number/)
    expect(() => readConfig({ DATABASE_POOL_MAX: '1' })).toThrow(/DATABASE_POOL_MAX must be a whole number of connections, 2 or more/)
    expect(() => readConfig({ READY_NEEDS_DATABASE: 'yes' })).toThrow(/READY_NEEDS_DATABASE must be 1 .* or 0/)
    expect(() => readConfig({ MIGRATE_ON_START: 'later' })).toThrow(/MIGRATE_ON_START must be 1 .* or 0/)
    expect(() => readConfig({ SHUTDOWN_GRACE_SECONDS: '-1' })).toThrow(/SHUTDOWN_GRACE_SECONDS must be a number of seconds/)
  })

  it('hands the core every variable it needs', () => {
    const config = readConfig({
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
      WAITING_LIST_OFFER_HOURS: '24',
      JOINING_MAIL_DAYS_BEFORE: '5',
    })
    expect(config.core).toEqual({
      dataDir: '/var/lib/events',
      databaseUrl: 'postgres://127.0.0.1/events',
      smtpUrl: 'smtp://mail.example.com:587',
      mailFrom: 'Example Events <events@example.com>',
      organiserEmail: 'bookings@example.com',
      siteDate: new Date('2025-02-28T22:00:00Z'),
      formRateLimit: 0,
      enquiryRetentionMonths: 36,
      waitingListOfferHours: 24,
      joiningMailDaysBefore: 5,
      databaseStartupWaitMs: 2_500,
      databasePoolMax: 10,
      migrateOnStart: true,
    })
    expect(config.siteUrl).toBe('https://events.example.com')
  })

  it('previews the embedded dataset at its date and gives the core the same date', () => {
    const config = readConfig({})
    expect(config.now().toISOString()).toBe(new Date(EMBEDDED_PREVIEW_DATE).toISOString())
    expect(config.core.siteDate?.toISOString()).toBe(new Date(EMBEDDED_PREVIEW_DATE).toISOString())
    expect(config.siteUrl).toBe('http://localhost:3000')
  })

  it('uses the real time with a Sanity project and no SITE_DATE', () => {
    const config = readConfig({ SANITY_PROJECT_ID: 'abc', SANITY_DATASET: 'production' })
    expect(config.core.siteDate).toBeUndefined()
  })

  it('reads SITE_DATE as the business clock of the site and the core', () => {
    const config = readConfig({ SITE_DATE: '2025-04-10', PORT: '8080', FORM_RATE_LIMIT: '0', ORGANISER_EMAIL: 'team@x.test' })
    expect(config.now().toISOString()).toBe('2025-04-09T22:00:00.000Z')
    expect(config.core).toMatchObject({ formRateLimit: 0, organiserEmail: 'team@x.test' })
    expect(config.siteUrl).toBe('http://localhost:8080')
  })

  it('gives the content client a Sanity project only when both SANITY_PROJECT_ID and SANITY_DATASET are set', () => {
    expect(readConfig({ SANITY_PROJECT_ID: 'abc123' }).content).toEqual({})
    expect(readConfig({ SANITY_DATASET: 'production' }).hostedContent).toBe(false)
    const hosted = readConfig({ SANITY_PROJECT_ID: 'abc123', SANITY_DATASET: 'live', SANITY_API_READ_TOKEN: 'sk-read', SANITY_API_VERSION: '2024-01-01' })
    expect(hosted.hostedContent).toBe(true)
    expect(hosted.content).toEqual({ apiVersion: '2024-01-01', sanity: { projectId: 'abc123', dataset: 'live', readToken: 'sk-read' } })
  })

  it('reads the server settings', () => {
    const config = readConfig({ HOST: '127.0.0.1', TRUST_PROXY: '2', LOG_LEVEL: 'WARN', NODE_ENV: 'development', CONTENT_DATASET_PATH: 'fixtures/site.ndjson' })
    expect(config).toMatchObject({
      host: '127.0.0.1',
      trustProxy: '2',
      logLevel: 'warn',
      nodeEnv: 'development',
      contentDatasetPath: path.resolve('fixtures/site.ndjson'),
    })
  })

  it.each([
    [undefined, 'info'],
    ['', 'info'],
    ['debug', 'debug'],
    ['WARN', 'warn'],
    ['silent', 'silent'],
  ])('LOG_LEVEL=%s is %s', (value, level) => {
    expect(readConfig({ LOG_LEVEL: value }).logLevel).toBe(level)
  })

  it('has no metrics token unless METRICS_TOKEN is set', () => {
    expect(readConfig({}).metricsToken).toBeUndefined()
    expect(readConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined()
    expect(readConfig({ METRICS_TOKEN: 'a1b2c3d4e5f6a7b8c9d0' }).metricsToken).toBe('a1b2c3d4e5f6a7b8c9d0')
  })

  it('lets the local Studio frame previews unless SANITY_STUDIO_URL names another', () => {
    expect(readConfig({}).studioOrigin).toBe('http://localhost:3333')
    expect(readConfig({ SANITY_STUDIO_URL: 'https://events.sanity.studio/desk' }).studioOrigin).toBe('https://events.sanity.studio')
  })

  it('caches pages under the documented Cache-Control and memory limit unless told otherwise', () => {
    expect(readConfig({}).pageCacheControl).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=86400')
    expect(readConfig({}).pageCacheMaxBytes).toBe(64 * 1024 * 1024)
    const tuned = readConfig({ PAGE_CACHE_CONTROL: 'public, max-age=60', PAGE_CACHE_MAX_MB: '0.5' })
    expect(tuned.pageCacheControl).toBe('public, max-age=60')
    expect(tuned.pageCacheMaxBytes).toBe(512 * 1024)
  })

  it('has a Sanity webhook secret only when SANITY_WEBHOOK_SECRET is set', () => {
    expect(readConfig({}).sanityWebhookSecret).toBeUndefined()
    expect(readConfig({ SANITY_WEBHOOK_SECRET: 'shh' }).sanityWebhookSecret).toBe('shh')
  })

  it.each([
    [{ PAGE_CACHE_MAX_MB: '0' }, /PAGE_CACHE_MAX_MB/],
    [{ PAGE_CACHE_MAX_MB: 'lots' }, /PAGE_CACHE_MAX_MB/],
    [{ SANITY_STUDIO_URL: 'events.sanity.studio' }, /SANITY_STUDIO_URL/],
    [{ PORT: 'x' }, /^PORT must be a whole number from 0 to 65535, not "x"$/],
    [{ PORT: '70000' }, /^PORT must be a whole number from 0 to 65535, not "70000"$/],
    [{ FORM_RATE_LIMIT: '-1' }, /FORM_RATE_LIMIT/],
    [{ FORM_RATE_LIMIT: '2.5' }, /FORM_RATE_LIMIT/],
    [{ FORM_RATE_LIMIT: 'twenty' }, /FORM_RATE_LIMIT/],
    [{ ENQUIRY_RETENTION_MONTHS: '0' }, /ENQUIRY_RETENTION_MONTHS/],
    [{ ENQUIRY_RETENTION_MONTHS: '1.5' }, /ENQUIRY_RETENTION_MONTHS/],
    [{ ENQUIRY_RETENTION_MONTHS: 'two years' }, /ENQUIRY_RETENTION_MONTHS/],
    [{ WAITING_LIST_OFFER_HOURS: '0' }, /WAITING_LIST_OFFER_HOURS must be a whole number of hours/],
    [{ WAITING_LIST_OFFER_HOURS: '1.5' }, /WAITING_LIST_OFFER_HOURS/],
    [{ JOINING_MAIL_DAYS_BEFORE: '1' }, /JOINING_MAIL_DAYS_BEFORE must be a whole number of days, 2 or more/],
    [{ DATABASE_STARTUP_WAIT_SECONDS: '-1' }, /DATABASE_STARTUP_WAIT_SECONDS/],
    [{ DATABASE_STARTUP_WAIT_SECONDS: 'a minute' }, /DATABASE_STARTUP_WAIT_SECONDS/],
    [{ SITE_DATE: 'soon' }, /^SITE_DATE is not a date: "soon"; set it like 2025-03-01 or 2025-03-01T09:00:00\+02:00, or leave it unset$/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN/],
    [{ METRICS_TOKEN: 'sixteen chars with spaces' }, /METRICS_TOKEN/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of/],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError)
    expect(() => readConfig(env)).toThrow(message)
  })

  it('names the first bad variable in the order startup has always checked them', () => {
    expect(() => readConfig({ LOG_LEVEL: 'loud', PORT: 'x', SITE_DATE: 'soon' })).toThrow(/^LOG_LEVEL/)
    expect(() => readConfig({ PORT: 'x', SITE_DATE: 'soon' })).toThrow(/^PORT/)
  })
})

describe('parseSiteDate', () => {
  it('reads datetimes and refuses nonsense', () => {
    expect(parseSiteDate('2025-06-13T23:59:00+02:00').toISOString()).toBe('2025-06-13T21:59:00.000Z')
    expect(() => parseSiteDate('soon')).toThrow(/SITE_DATE/)
  })
})
