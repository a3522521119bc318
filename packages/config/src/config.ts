import path from 'node:path'
import type { ContentSettings } from '@events/content'
import type { CoreConfig } from '@events/core'
import { z } from 'zod'

/** The shipped dataset is the 2025 programme: without a Sanity project the site previews it as of early 2025. */
export const EMBEDDED_PREVIEW_DATE = '2025-03-01T09:00:00+02:00'

/** Public pages: browsers revalidate by ETag each time, a CDN keeps them a minute and may serve them stale meanwhile. */
export const DEFAULT_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=86400'

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Everything the process reads from the environment, with the defaults the README documents. */
export interface Config {
  port: number
  host: string
  /** TRUST_PROXY: Express's `trust proxy` setting. */
  trustProxy: string
  logLevel: LogLevel
  /** NODE_ENV: `development` under `pnpm dev` (sources served through Vite); React Router's server mode. */
  nodeEnv: string | undefined
  /** CONTENT_DATASET_PATH, resolved; unset means the shipped dataset, which only the server's entry can locate. */
  contentDatasetPath: string | undefined
  /** The content client's settings: a Sanity project when SANITY_PROJECT_ID and SANITY_DATASET are both set. */
  content: ContentSettings
  /** The core's settings, with the site's business date filled in so both agree on "now". */
  core: CoreConfig
  siteUrl: string
  /** The business clock: SITE_DATE when set, otherwise the embedded dataset's preview date or the real time. */
  now: () => Date
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
  /** HEALTH_PORT: a second port on which a thread of its own answers /healthz and /readyz; unset, none. */
  healthPort: number | undefined
  /** READY_NEEDS_DATABASE: whether /readyz includes the database (an instance that must write); unset, only content. */
  readyNeedsDatabase: boolean
  /** SHUTDOWN_DRAIN_SECONDS, in ms: how long a stopping instance keeps serving while /readyz says it is draining. */
  shutdownDrainMs: number
  /** SHUTDOWN_GRACE_SECONDS, in ms: then how long it waits for open requests before it exits. */
  shutdownGraceMs: number
}

/** A setting the operator must change; its message says which and how. */
export class ConfigError extends Error {}

// A token anyone could guess would publish the site's traffic and queue figures.
const MIN_METRICS_TOKEN_LENGTH = 16

/** Parses SITE_DATE: an ISO datetime, or a date (YYYY-MM-DD) meaning its start in Africa/Johannesburg. */
export function parseSiteDate(value: string): Date {
  const text = value.trim()
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00+02:00` : text)
  if (Number.isNaN(date.getTime()))
    throw new ConfigError(`SITE_DATE is not a date: "${value}"; set it like 2025-03-01 or 2025-03-01T09:00:00+02:00, or leave it unset`)
  return date
}

/** An unset or blank variable is absent; other values are kept trimmed. */
const trimmed = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined)

/** An unset or empty variable is absent; other values are kept as they are (secrets may carry any character). */
const verbatim = z
  .string()
  .optional()
  .transform((value) => value || undefined)

/** A variable checked by `read`, whose ConfigError becomes the variable's one message. */
function checked<T>(read: (value: string | undefined) => T) {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      try {
        return read(value)
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    })
}

function refuse(message: string): never {
  throw new ConfigError(message)
}

/** A number of seconds, 0 or more, with its default. */
function seconds(name: string, fallback: number) {
  return checked((value) => {
    const text = value?.trim() || undefined
    const amount = text === undefined ? fallback : Number(text)
    return Number.isFinite(amount) && amount >= 0 ? amount : refuse(`${name} must be a number of seconds, 0 or more: ${text}`)
  })
}

// The order of the keys is the order of the checks: the first bad variable is the one startup names.
const environment = z.object({
  LOG_LEVEL: checked((value) => {
    const level = (value || 'info').toLowerCase()
    return (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : refuse(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`)
  }),
  PORT: checked((value) => {
    const port = Number(value ?? 3000)
    return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : refuse(`PORT must be a whole number from 0 to 65535, not "${value}"`)
  }),
  HOST: z.string().default('0.0.0.0'),
  HEALTH_PORT: checked((value) => {
    const text = value?.trim() || undefined
    if (text === undefined) return undefined
    const port = Number(text)
    return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : refuse(`HEALTH_PORT must be a whole number from 0 to 65535, not "${value}"`)
  }),
  TRUST_PROXY: z.string().default('loopback'),
  NODE_ENV: z.string().optional(),
  CONTENT_DATASET_PATH: z.string().optional(),
  METRICS_TOKEN: checked((value) => {
    const token = value || undefined
    if (token !== undefined && (token.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(token))) {
      refuse(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces, e.g. the output of \`openssl rand -hex 32\``)
    }
    return token
  }),
  SANITY_STUDIO_URL: checked((value) => {
    try {
      return new URL(value || 'http://localhost:3333').origin
    } catch {
      return refuse(`SANITY_STUDIO_URL must be the Studio's address, e.g. https://events.sanity.studio, not "${value}"`)
    }
  }),
  PAGE_CACHE_MAX_MB: checked((value) => {
    const megabytes = Number(value || 64)
    return megabytes > 0 ? megabytes : refuse(`PAGE_CACHE_MAX_MB must be a number of megabytes above 0, not "${value}"`)
  }),
  PAGE_CACHE_CONTROL: trimmed.transform((value) => value ?? DEFAULT_PAGE_CACHE_CONTROL),
  FORM_RATE_LIMIT: checked((value) => {
    const text = value?.trim() || undefined
    const limit = text === undefined ? 20 : Number(text)
    return Number.isInteger(limit) && limit >= 0 ? limit : refuse(`FORM_RATE_LIMIT must be a whole number of posts per minute (0 turns it off): ${text}`)
  }),
  ENQUIRY_RETENTION_MONTHS: checked((value) => {
    const text = value?.trim() || undefined
    const months = text === undefined ? 24 : Number(text)
    return Number.isInteger(months) && months >= 1 ? months : refuse(`ENQUIRY_RETENTION_MONTHS must be a whole number of months, 1 or more: ${text}`)
  }),
  WAITING_LIST_OFFER_HOURS: checked((value) => {
    const text = value?.trim() || undefined
    const hours = text === undefined ? 48 : Number(text)
    return Number.isInteger(hours) && hours >= 1 ? hours : refuse(`WAITING_LIST_OFFER_HOURS must be a whole number of hours, 1 or more: ${text}`)
  }),
  JOINING_MAIL_DAYS_BEFORE: checked((value) => {
    const text = value?.trim() || undefined
    const days = text === undefined ? 3 : Number(text)
    return Number.isInteger(days) && days >= 2 ? days : refuse(`JOINING_MAIL_DAYS_BEFORE must be a whole number of days, 2 or more: ${text}`)
  }),
  DATABASE_STARTUP_WAIT_SECONDS: checked((value) => {
    const text = value?.trim() || undefined
    const seconds = text === undefined ? 60 : Number(text)
    return Number.isFinite(seconds) && seconds >= 0 ? seconds : refuse(`DATABASE_STARTUP_WAIT_SECONDS must be a number of seconds: ${text}`)
  }),
  DATABASE_POOL_MAX: checked((value) => {
    const text = value?.trim() || undefined
    const connections = text === undefined ? 10 : Number(text)
    return Number.isInteger(connections) && connections >= 2
      ? connections
      : refuse(`DATABASE_POOL_MAX must be a whole number of connections, 2 or more: ${text}`)
  }),
  MIGRATE_ON_START: checked((value) => {
    const text = (value?.trim() || '1').toLowerCase()
    if (['1', 'true', 'on'].includes(text)) return true
    if (['0', 'false', 'off'].includes(text)) return false
    return refuse(`MIGRATE_ON_START must be 1 (migrate at startup) or 0 (leave it to pnpm db:migrate), not "${value}"`)
  }),
  READY_NEEDS_DATABASE: checked((value) => {
    const text = (value?.trim() || '0').toLowerCase()
    if (['1', 'true', 'on'].includes(text)) return true
    if (['0', 'false', 'off'].includes(text)) return false
    return refuse(`READY_NEEDS_DATABASE must be 1 (unready without the database) or 0 (serve pages without it), not "${value}"`)
  }),
  SHUTDOWN_DRAIN_SECONDS: seconds('SHUTDOWN_DRAIN_SECONDS', 2),
  SHUTDOWN_GRACE_SECONDS: seconds('SHUTDOWN_GRACE_SECONDS', 10),
  SITE_DATE: checked((value) => (value?.trim() ? parseSiteDate(value) : undefined)),
  DATA_DIR: trimmed.transform((value) => value ?? './data'),
  INIT_CWD: trimmed,
  DATABASE_URL: trimmed,
  SMTP_URL: trimmed,
  MAIL_FROM: trimmed.transform((value) => value ?? 'Events <no-reply@localhost>'),
  ORGANISER_EMAIL: trimmed,
  SITE_URL: trimmed,
  SANITY_PROJECT_ID: verbatim,
  SANITY_DATASET: verbatim,
  SANITY_API_VERSION: verbatim,
  SANITY_API_READ_TOKEN: verbatim,
  SANITY_WEBHOOK_SECRET: verbatim,
  YOCO_SECRET_KEY: verbatim,
  YOCO_WEBHOOK_SECRET: verbatim,
  YOCO_API_BASE: z.string().default('https://payments.yoco.com'),
  PAYMENTS_SANDBOX: z.string().optional(),
})

/**
 * Reads and checks the environment once, at startup; each package is handed its part. A bad value throws a
 * ConfigError that names the variable and says what to set.
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const parsed = environment.safeParse(env)
  if (!parsed.success) throw new ConfigError(parsed.error.issues[0]?.message)
  const vars = parsed.data
  // A relative path is taken from where the command was started: the directory `pnpm …` was typed in (pnpm runs its
  // scripts from the repository root and says where it was typed in INIT_CWD), else the working directory.
  const startedIn = vars.INIT_CWD ?? process.cwd()

  const sanity =
    vars.SANITY_PROJECT_ID && vars.SANITY_DATASET
      ? { projectId: vars.SANITY_PROJECT_ID, dataset: vars.SANITY_DATASET, readToken: vars.SANITY_API_READ_TOKEN }
      : undefined
  const hostedContent = sanity !== undefined
  const siteUrl = (vars.SITE_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, '')
  // Without SITE_DATE the embedded dataset is previewed at its own date; hosted content runs on the real time.
  const siteDate = vars.SITE_DATE ?? (hostedContent ? undefined : new Date(EMBEDDED_PREVIEW_DATE))

  return {
    port: vars.PORT,
    host: vars.HOST,
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
    nodeEnv: vars.NODE_ENV,
    contentDatasetPath: vars.CONTENT_DATASET_PATH === undefined ? undefined : path.resolve(startedIn, vars.CONTENT_DATASET_PATH),
    content: {
      ...(vars.SANITY_API_VERSION ? { apiVersion: vars.SANITY_API_VERSION } : {}),
      ...(sanity ? { sanity } : {}),
    },
    core: {
      dataDir: path.resolve(startedIn, vars.DATA_DIR),
      ...(vars.DATABASE_URL ? { databaseUrl: vars.DATABASE_URL } : {}),
      ...(vars.SMTP_URL ? { smtpUrl: vars.SMTP_URL } : {}),
      mailFrom: vars.MAIL_FROM,
      ...(vars.ORGANISER_EMAIL ? { organiserEmail: vars.ORGANISER_EMAIL } : {}),
      ...(siteDate ? { siteDate } : {}),
      formRateLimit: vars.FORM_RATE_LIMIT,
      enquiryRetentionMonths: vars.ENQUIRY_RETENTION_MONTHS,
      waitingListOfferHours: vars.WAITING_LIST_OFFER_HOURS,
      joiningMailDaysBefore: vars.JOINING_MAIL_DAYS_BEFORE,
      databaseStartupWaitMs: vars.DATABASE_STARTUP_WAIT_SECONDS * 1000,
      databasePoolMax: vars.DATABASE_POOL_MAX,
      migrateOnStart: vars.MIGRATE_ON_START,
    },
    siteUrl,
    now: siteDate ? () => new Date(siteDate) : () => new Date(),
    hostedContent,
    yocoSecretKey: vars.YOCO_SECRET_KEY,
    yocoWebhookSecret: vars.YOCO_WEBHOOK_SECRET,
    yocoApiBase: vars.YOCO_API_BASE.replace(/\/+$/, ''),
    paymentsSandboxAllowed: ['1', 'true', 'on'].includes((vars.PAYMENTS_SANDBOX ?? '').toLowerCase()),
    metricsToken: vars.METRICS_TOKEN,
    studioOrigin: vars.SANITY_STUDIO_URL,
    sanityWebhookSecret: vars.SANITY_WEBHOOK_SECRET,
    pageCacheControl: vars.PAGE_CACHE_CONTROL,
    pageCacheMaxBytes: Math.round(vars.PAGE_CACHE_MAX_MB * 1024 * 1024),
    healthPort: vars.HEALTH_PORT,
    readyNeedsDatabase: vars.READY_NEEDS_DATABASE,
    shutdownDrainMs: vars.SHUTDOWN_DRAIN_SECONDS * 1000,
    shutdownGraceMs: vars.SHUTDOWN_GRACE_SECONDS * 1000,
  }
}
