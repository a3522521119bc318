import { readCoreConfig, type CoreConfig } from '@events/core'

/**
 * Everything the server reads from the environment, with the defaults the README documents. The settings the
 * core shares (DATA_DIR, DATABASE_URL, SMTP_URL, MAIL_FROM, ORGANISER_EMAIL, SITE_URL, SITE_DATE, FORM_RATE_LIMIT)
 * are read by the core's own reader; this adds what only the site needs.
 */
export interface SiteConfig {
  port: number
  /** The core's settings, with the site's business date filled in so both agree on "now". */
  core: CoreConfig
  siteUrl: string
  /** The business clock: SITE_DATE when set, otherwise the embedded dataset's preview date or the real time. */
  now: () => Date
  siteDateSource: 'SITE_DATE' | 'embedded-default' | 'clock'
  hostedContent: boolean
  yocoSecretKey: string | undefined
  yocoWebhookSecret: string | undefined
  yocoApiBase: string
  /** PAYMENTS_SANDBOX: the sandbox checkout may serve a public SITE_URL (a staging site, say). */
  paymentsSandboxAllowed: boolean
  /** METRICS_TOKEN: the bearer token /metrics answers to; without it there is no /metrics. */
  metricsToken: string | undefined
  /** SANITY_STUDIO_URL's origin: the Studio whose Presentation tool may frame draft previews. */
  studioOrigin: string
  /** SANITY_WEBHOOK_SECRET: the secret Sanity signs content-change webhooks with; without it there is no webhook route. */
  sanityWebhookSecret: string | undefined
  /** PAGE_CACHE_CONTROL: the Cache-Control of cached public pages. */
  pageCacheControl: string
  /** PAGE_CACHE_MAX_MB, in bytes: the most memory the page cache may take. */
  pageCacheMaxBytes: number
}

/** The shipped dataset is the 2025 programme: without a Sanity project the site previews it as of early 2025. */
export const EMBEDDED_PREVIEW_DATE = '2025-03-01T09:00:00+02:00'

export class ConfigError extends Error {}

/** Public pages: browsers revalidate by ETag each time, a CDN keeps them a minute and may serve them stale meanwhile. */
export const DEFAULT_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=86400'
const DEFAULT_PAGE_CACHE_MAX_MB = 64

// A token anyone could guess would publish the site's traffic and queue figures.
const MIN_METRICS_TOKEN_LENGTH = 16

/** Reads and checks the environment once at startup; a bad value stops the server with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv): SiteConfig {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a whole number from 0 to 65535, not "${env.PORT}"`)
  const hostedContent = Boolean(env.SANITY_PROJECT_ID && env.SANITY_DATASET)
  const metricsToken = env.METRICS_TOKEN || undefined
  if (metricsToken !== undefined && (metricsToken.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(metricsToken))) {
    throw new ConfigError(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces, e.g. the output of \`openssl rand -hex 32\``)
  }

  let studioOrigin: string
  try {
    studioOrigin = new URL(env.SANITY_STUDIO_URL || 'http://localhost:3333').origin
  } catch {
    throw new ConfigError(`SANITY_STUDIO_URL must be the Studio's address, e.g. https://events.sanity.studio, not "${env.SANITY_STUDIO_URL}"`)
  }

  const pageCacheMaxMb = Number(env.PAGE_CACHE_MAX_MB || DEFAULT_PAGE_CACHE_MAX_MB)
  if (!(pageCacheMaxMb > 0)) throw new ConfigError(`PAGE_CACHE_MAX_MB must be a number of megabytes above 0, not "${env.PAGE_CACHE_MAX_MB}"`)

  let core: CoreConfig
  try {
    core = readCoreConfig({ ...env, PORT: String(port) })
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }

  let siteDateSource: SiteConfig['siteDateSource'] = 'SITE_DATE'
  if (!core.siteDate && !hostedContent) {
    core = { ...core, siteDate: new Date(EMBEDDED_PREVIEW_DATE) }
    siteDateSource = 'embedded-default'
  } else if (!core.siteDate) {
    siteDateSource = 'clock'
  }
  const fixedDate = core.siteDate

  return {
    port,
    core,
    siteUrl: core.siteUrl,
    now: fixedDate ? () => new Date(fixedDate) : () => new Date(),
    siteDateSource,
    hostedContent,
    yocoSecretKey: env.YOCO_SECRET_KEY || undefined,
    yocoWebhookSecret: env.YOCO_WEBHOOK_SECRET || undefined,
    yocoApiBase: (env.YOCO_API_BASE ?? 'https://payments.yoco.com').replace(/\/+$/, ''),
    paymentsSandboxAllowed: ['1', 'true', 'on'].includes((env.PAYMENTS_SANDBOX ?? '').toLowerCase()),
    metricsToken,
    studioOrigin,
    sanityWebhookSecret: env.SANITY_WEBHOOK_SECRET || undefined,
    pageCacheControl: env.PAGE_CACHE_CONTROL?.trim() || DEFAULT_PAGE_CACHE_CONTROL,
    pageCacheMaxBytes: Math.round(pageCacheMaxMb * 1024 * 1024),
  }
}
