import type { Core, EventCatalog } from '@events/core'
import { describe, expect, it } from 'vitest'
import { readConfig } from '@events/config'
import { createSiteLinks } from '../app/lib/site-links'
import { createSitePayments } from './payments'

const links = createSiteLinks('http://localhost:3000')
const catalog: EventCatalog = {
  getEvent: async () => undefined,
  getSettings: async () => {
    throw new Error('not needed')
  },
}
// Choosing the provider touches nothing of the core but its database handle and outbox.
const core = { db: {}, outbox: { wake() {} }, formRateLimiter: { check: async () => ({ allowed: true }) } } as unknown as Core

describe('card payment provider from the environment', () => {
  it('uses the sandbox without a Yoco key and says so at startup', () => {
    const lines: string[] = []
    const payments = createSitePayments({ config: readConfig({}), core, catalog, links, log: (line) => lines.push(line) })
    expect(payments.context.provider.name).toBe('sandbox')
    expect(lines).toEqual(['Card payments: the local sandbox checkout, which charges nothing (set YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET for Yoco)'])
    // The sandbox checkout is on the site's own origin, which form-action 'self' already allows.
    expect(payments.checkoutOrigins).toEqual([])
  })

  it('uses Yoco with a key and a webhook secret, at YOCO_API_BASE', () => {
    const lines: string[] = []
    const config = readConfig({
      YOCO_SECRET_KEY: 'sk_test_1',
      YOCO_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      YOCO_API_BASE: 'http://127.0.0.1:9/',
    })
    const payments = createSitePayments({ config, core, catalog, links, log: (line) => lines.push(line) })
    expect(payments.context.provider.name).toBe('yoco')
    expect(lines).toEqual(['Card payments: Yoco Checkout at http://127.0.0.1:9'])
    expect(payments.checkoutOrigins).toEqual(['https://c.yoco.com', 'http://127.0.0.1:9'])
  })

  it('refuses the sandbox on a public SITE_URL unless PAYMENTS_SANDBOX allows it', () => {
    expect(() => createSitePayments({ config: readConfig({ SITE_URL: 'https://events.example.com' }), core, catalog, links, log: () => {} })).toThrow(
      /Card payments need YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET on https:\/\/events\.example\.com; set PAYMENTS_SANDBOX=1/,
    )
    const allowed = createSitePayments({
      config: readConfig({ SITE_URL: 'https://events.example.com', PAYMENTS_SANDBOX: '1' }),
      core,
      catalog,
      links,
      log: () => {},
    })
    expect(allowed.context.provider.name).toBe('sandbox')
    for (const siteUrl of ['http://localhost:3000', 'http://127.0.0.1:4100', 'http://[::1]:3000']) {
      expect(createSitePayments({ config: readConfig({ SITE_URL: siteUrl }), core, catalog, links, log: () => {} }).context.provider.name).toBe('sandbox')
    }
  })

  it('refuses to start with a Yoco key but no webhook secret, since nothing could be marked paid', () => {
    expect(() => createSitePayments({ config: readConfig({ YOCO_SECRET_KEY: 'sk_test_1' }), core, catalog, links, log: () => {} })).toThrow(
      /YOCO_WEBHOOK_SECRET must be set/,
    )
  })
})
