import { describe, expect, it } from 'vitest'
import { ConfigError, EMBEDDED_PREVIEW_DATE, readConfig } from './config'

describe('readConfig', () => {
  it('previews the embedded dataset at its date and gives the core the same date', () => {
    const config = readConfig({})
    expect(config.siteDateSource).toBe('embedded-default')
    expect(config.now().toISOString()).toBe(new Date(EMBEDDED_PREVIEW_DATE).toISOString())
    expect(config.core.siteDate?.toISOString()).toBe(new Date(EMBEDDED_PREVIEW_DATE).toISOString())
    expect(config.core.formRateLimit).toBe(20)
    expect(config.siteUrl).toBe('http://localhost:3000')
  })

  it('uses the real time with a Sanity project and no SITE_DATE', () => {
    const config = readConfig({ SANITY_PROJECT_ID: 'abc', SANITY_DATASET: 'production' })
    expect(config.siteDateSource).toBe('clock')
    expect(config.core.siteDate).toBeUndefined()
  })

  it('reads the shared settings through the core', () => {
    const config = readConfig({ SITE_DATE: '2025-04-10', PORT: '8080', FORM_RATE_LIMIT: '0', ORGANISER_EMAIL: 'team@x.test' })
    expect(config.siteDateSource).toBe('SITE_DATE')
    expect(config.now().toISOString()).toBe('2025-04-09T22:00:00.000Z')
    expect(config.core).toMatchObject({ formRateLimit: 0, organiserEmail: 'team@x.test', siteUrl: 'http://localhost:8080' })
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

  it.each([[{ PAGE_CACHE_MAX_MB: '0' }], [{ PAGE_CACHE_MAX_MB: 'lots' }], [{ SANITY_STUDIO_URL: 'events.sanity.studio' }], [{ PORT: 'x' }], [{ FORM_RATE_LIMIT: '-1' }], [{ SITE_DATE: 'soon' }], [{ METRICS_TOKEN: 'short' }], [{ METRICS_TOKEN: 'sixteen chars with spaces' }]])('refuses %j', (env) => {
    expect(() => readConfig(env)).toThrow(ConfigError)
  })
})
