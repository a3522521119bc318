import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import { afterEach, beforeEach } from 'vitest'
import type { EventCatalog, RegistrationEvent, SiteSettingsForMail } from './catalog.ts'
import type { CoreConfig } from './config.ts'
import type { AuditWriter, StaffActor } from './backoffice/command.ts'
import type { CoreDatabase } from './db/database.ts'
import { newId } from './ids.ts'
import { openDatabase, postgresClientConfig, sqliteFileOf, type OpenDatabaseOptions } from './db/open-database.ts'
import { createMailTransport, type MailTransport } from './mail/transport.ts'
import type { SiteLinks } from './site-links.ts'

/** The settings `@events/config` hands the core for a newcomer's setup, with the test's own in `overrides`. */
export function testCoreConfig(overrides: Partial<CoreConfig> & Pick<CoreConfig, 'dataDir'>): CoreConfig {
  return { mailFrom: 'Events <no-reply@localhost>', formRateLimit: 20, enquiryRetentionMonths: 24, databaseStartupWaitMs: 60_000, ...overrides }
}

/**
 * The site's links as the package tests see them, under `siteUrl`. The paths are the tests' own, not the site's
 * (apps/site/app/lib/site-links.ts), so a test passes only with the links it was handed.
 */
export function testSiteLinks(siteUrl = 'https://events.example.com'): SiteLinks {
  const registration = (key: { reference: string; secret: string }) => `${siteUrl}/test-registration/${key.reference}/${key.secret}`
  return {
    registrationStatus: registration,
    registrationPayment: (key) => `${registration(key)}/card`,
    paymentReturn: (key, outcome) => `${registration(key)}/back-from-checkout/${outcome}`,
    sandboxCheckout: (checkoutId) => `${siteUrl}/test-sandbox/${checkoutId}`,
    privacyNotice: () => `${siteUrl}/test-privacy`,
    staffSignIn: (redirectTo) => `${siteUrl}/test-staff/sign-in?next=${encodeURIComponent(redirectTo)}`,
    staffTwoFactorSetup: () => `${siteUrl}/test-staff/two-factor`,
    staffSetPassword: (token) => `${siteUrl}/test-staff/password?token=${encodeURIComponent(token)}`,
    staffAuth: () => `${siteUrl}/test-staff/auth`,
    delegatePass: (token) => `${siteUrl}/test-pass/${token}`,
    certificate: (number) => `${siteUrl}/test-certificates/${number}`,
    delegateJoin: (token) => `${siteUrl}/test-join/${token}`,
  }
}

/** The database backends the storage and service tests run on: SQLite always, PostgreSQL with TEST_DATABASE_URL. */
export const TEST_BACKENDS: ReadonlyArray<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']

export interface TestDatabase {
  db: CoreDatabase
  /** How to open the same data, e.g. from a child process playing a second server instance. */
  openOptions: OpenDatabaseOptions
  /** Opens another handle on the same data, like a second server instance would. */
  openAnother(): Promise<CoreDatabase>
  dispose(): Promise<void>
}

let sqliteTemplate: Promise<string> | undefined

/**
 * A SQLite file with every migration applied, made once per test file: each test database starts as a copy of it,
 * which saves running the migrations again for every test.
 */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const templateDir = mkdtempSync(path.join(tmpdir(), 'events-core-template-'))
    process.once('exit', () => rmSync(templateDir, { recursive: true, force: true }))
    const db = await openDatabase({ dataDir: templateDir })
    await createTestAuditLog(db)
    // Closing checkpoints the write-ahead log into the file, so the file alone holds the schema.
    await db.close()
    return sqliteFileOf(templateDir)
  })()
  return sqliteTemplate
}

/** A fresh, empty database: a temporary SQLite directory, or a new PostgreSQL schema so runs do not collide. */
export async function openTestDatabase(backend: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  if (backend === 'postgres') {
    const databaseUrl = process.env.TEST_DATABASE_URL
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set')
    const schema = `core_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    const opened: CoreDatabase[] = []
    const openOptions = { databaseUrl, dataDir: tmpdir(), schema }
    const open = async () => {
      const db = await openDatabase(openOptions)
      opened.push(db)
      return db
    }
    const db = await open()
    await createTestAuditLog(db)
    return {
      db,
      openOptions,
      openAnother: open,
      async dispose() {
        await Promise.all(opened.map((handle) => handle.close()))
        const client = new pg.Client(postgresClientConfig(databaseUrl))
        await client.connect()
        await client.query(`drop schema if exists "${schema}" cascade`)
        await client.end()
      },
    }
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-core-'))
  copyFileSync(await migratedSqliteTemplate(), sqliteFileOf(dataDir))
  const db = await openDatabase({ dataDir })
  return {
    db,
    openOptions: { dataDir },
    // SQLite is one process's file: a second instance shares the handle, as the single server would.
    openAnother: async () => db,
    async dispose() {
      await db.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The tests' own audit log, a table in the test database: the staff package owns the real one, so core's tests give
 * the commands a writer of this one to show that a command's audit row commits and rolls back with its change.
 */
async function createTestAuditLog(db: CoreDatabase): Promise<void> {
  await (db.kysely as unknown as Kysely<TestAuditDatabase>).schema
    .createTable('test_audit_log')
    .ifNotExists()
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('occurred_at', 'text', (column) => column.notNull())
    .addColumn('actor_id', 'text', (column) => column.notNull())
    .addColumn('actor_role', 'text', (column) => column.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('subject_type', 'text', (column) => column.notNull())
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .execute()
}

interface TestAuditDatabase {
  test_audit_log: {
    id: string
    occurred_at: string
    actor_id: string
    actor_role: string
    ip_address: string | null
    action: string
    subject_type: string
    subject_id: string
    before_json: string | null
    after_json: string | null
  }
}

/** The staff member tests act as in the back office's commands. */
export const TEST_STAFF: StaffActor = { id: 'staff-1', name: 'Nomsa Dlamini', email: 'nomsa@example.com', role: 'staff', ipAddress: '203.0.113.7' }

/** A manager, for the commands staff may not run (cancelling, refunds, invoice corrections, deciding requests). */
export const TEST_MANAGER: StaffActor = { id: 'manager-1', name: 'Mpho Mokoena', email: 'mpho@example.com', role: 'manager', ipAddress: '203.0.113.8' }

/** An audit writer into the tests' audit log, through the command's transaction. */
export const testAuditWriter: AuditWriter = async (transaction, row) => {
  await (transaction as unknown as Kysely<TestAuditDatabase>)
    .insertInto('test_audit_log')
    .values({
      id: newId(),
      occurred_at: row.at.toISOString(),
      actor_id: row.actor.id,
      actor_role: row.actor.role,
      ip_address: row.actor.ipAddress,
      action: row.action,
      subject_type: row.subjectType,
      subject_id: row.subjectId,
      before_json: row.before === undefined ? null : JSON.stringify(row.before),
      after_json: row.after === undefined ? null : JSON.stringify(row.after),
    })
    .execute()
}

/** What the tests' audit log holds, oldest first, with before and after read back from JSON. */
export async function testAuditRows(db: CoreDatabase) {
  const rows = await (db.kysely as unknown as Kysely<TestAuditDatabase>).selectFrom('test_audit_log').selectAll().orderBy('id').execute()
  return rows.map((row) => ({
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    actorId: row.actor_id,
    actorRole: row.actor_role,
    ipAddress: row.ip_address,
    before: row.before_json === null ? undefined : (JSON.parse(row.before_json) as unknown),
    after: row.after_json === null ? undefined : (JSON.parse(row.after_json) as unknown),
  }))
}

/** A temporary directory removed by the returned function. */
export function temporaryDirectory(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'events-core-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export const SETTINGS: SiteSettingsForMail = {
  siteName: 'Example Events',
  vatRate: 0.15,
  bankDetails: {
    bankName: 'Placeholder Bank',
    accountName: 'Example Events (Pty) Ltd',
    accountNumber: '0000000000',
    branch: 'Sandton',
    branchCode: '000000',
    swiftCode: 'PLACZAJJ',
  },
  paymentTermsDays: 5,
  addresses: ['1 Example Street, Sandton'],
  phones: ['+27 11 000 0000'],
  email: 'info@example.com',
  vatNumber: '4000000000',
  informationOfficer: { name: 'Information Officer', email: 'privacy@example.com' },
}

/** Legal Opinion Writing 2025 as the content describes it (3-4 July 2025, 08:30-16:00 SAST). */
export const LEGAL_OPINION: RegistrationEvent = {
  id: 'event-legal-opinion',
  slug: 'legalOpinion',
  kind: 'workshop',
  title: 'Legal Opinion Writing 2025',
  code: 'LOW2025',
  start: '2025-07-03T06:30:00Z',
  end: '2025-07-04T14:00:00Z',
  registrationClosesAt: null,
  registrationSubject: 'Legal Opinion Delegate Registration',
  venue: { name: 'Indaba Hotel', address: 'William Nicol Drive, Fourways, Sandton, Johannesburg' },
  contactEmail: 'workshops@example.com',
  contactPhone: '+27 11 000 0001',
  url: 'https://events.example.com/workshop/legalOpinion',
  priceOptions: [
    { key: 'venue', label: 'Venue', amount: 8990 },
    { key: 'early-bird', label: 'Early-bird: register and pay by 25 March 2025', amount: 7990, earlyBirdUntil: '2025-03-25' },
    { key: 'online', label: 'Online', amount: 5990 },
  ],
  // Six and a quarter hours of sessions a day, between registration, tea and lunch.
  agendaDays: [
    {
      date: '2025-07-03',
      sessions: [
        { start: '08:00', end: '08:30', isBreak: true },
        { start: '08:30', end: '10:30', isBreak: false },
        { start: '10:30', end: '10:45', isBreak: true },
        { start: '10:45', end: '12:30', isBreak: false },
        { start: '12:30', end: '13:15', isBreak: true },
        { start: '13:15', end: '15:45', isBreak: false },
      ],
    },
    {
      date: '2025-07-04',
      sessions: [
        { start: '08:30', end: '10:30', isBreak: false },
        { start: '10:30', end: '10:45', isBreak: true },
        { start: '10:45', end: '12:30', isBreak: false },
        { start: '12:30', end: '13:15', isBreak: true },
        { start: '13:15', end: '15:45', isBreak: false },
      ],
    },
  ],
}

/** The Economic Resilience Conference 2025, which also offers tables. */
export const RESILIENCE: RegistrationEvent = {
  id: 'event-resilience',
  slug: 'Resilience',
  kind: 'conference',
  title: 'Economic Resilience Conference 2025',
  code: 'ERC2025',
  start: '2025-07-23T05:30:00Z',
  end: '2025-07-24T14:00:00Z',
  registrationClosesAt: null,
  registrationSubject: 'Resilience Delegate Registration',
  venue: { name: 'Indaba Hotel', address: 'Fourways, Sandton, Johannesburg' },
  contactEmail: 'conferences@example.com',
  contactPhone: '+27 11 000 0002',
  url: 'https://events.example.com/conference/Resilience',
  priceOptions: [
    { key: 'venue', label: 'Venue', amount: 8490 },
    { key: 'early-bird', label: 'Early-bird: register and pay by 13 June 2025', amount: 7490, earlyBirdUntil: '2025-06-13' },
    { key: 'online', label: 'Online', amount: 5490 },
    { key: 'table-5', label: 'Table of 5 delegates', amount: 34950 },
    { key: 'table-10', label: 'Table of 10 delegates', amount: 59900 },
  ],
}

/** A site date in early 2025, when the shipped programme is open for registration. */
/** Names every object inherits: a visitor's string equal to one of them must not pass as a known option. */
export const INHERITED_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'] as const

export const SITE_NOW = new Date('2025-03-01T08:00:00+02:00')

/**
 * A catalog over fixed events and settings; `renamed` maps the old slugs of renamed events to their slugs now, as the
 * site's catalog follows the redirect documents.
 */
export function fixedCatalog(events: readonly RegistrationEvent[] = [LEGAL_OPINION, RESILIENCE], renamed: Readonly<Record<string, string>> = {}): EventCatalog {
  return {
    getEvent: async (slug) => events.find((event) => event.slug === (Object.hasOwn(renamed, slug) ? renamed[slug] : slug)),
    getSettings: async () => SETTINGS,
  }
}

/** A valid registration body for Legal Opinion, venue, two delegates. */
export function registrationInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event: 'legalOpinion',
    code: 'LOW2025',
    companyName: 'Acme Legal Services',
    address: '12 Main Road\nRosebank\nJohannesburg',
    email: 'bookings@acme.example.com',
    tel: '+27 11 555 0100',
    vatNumber: '4123456789',
    delegates: [
      { name: 'Thandi Nkosi', position: 'Legal Adviser', email: 'thandi@acme.example.com' },
      { name: 'Pieter van Wyk', position: 'Paralegal', email: 'pieter@acme.example.com' },
    ],
    attendanceOption: 'venue',
    paymentMethod: 'bank-transfer',
    legalAgreement: true,
    ...overrides,
  }
}

export interface ReceivedMail {
  envelopeFrom: string
  recipients: string[]
  raw: string
  parsed: ParsedMail
}

export interface SmtpSink {
  url: string
  port: number
  received: ReceivedMail[]
  /** Stops accepting connections (an outage); `start` brings it back on the same port. */
  stop(): Promise<void>
  start(): Promise<void>
}

export interface SmtpSinkOptions {
  /** Connections served at once; beyond them the server answers 421, as a provider with a connection limit does. */
  maxClients?: number
  /** Awaited after a message is kept and before the server answers that it took it: a fault strikes in between. */
  beforeAccepting?: (mail: ReceivedMail) => Promise<void>
}

/** A real SMTP server on an ephemeral port that keeps every message it accepts. */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = []
  let port = 0
  let server: SMTPServer | undefined

  const listen = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // Stopping drops open connections at once, as a mail server going down would, instead of waiting 30 s.
      closeTimeout: 100,
      ...(options.maxClients === undefined ? {} : { maxClients: options.maxClients }),
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          simpleParser(raw).then(
            (parsed) => {
              const mail: ReceivedMail = {
                envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
                raw,
                parsed,
              }
              received.push(mail)
              return Promise.resolve(options.beforeAccepting?.(mail)).then(
                () => callback(),
                (error: unknown) => callback(error as Error),
              )
            },
            (error: unknown) => callback(error as Error),
          )
        })
      },
    })
    const current = server
    await new Promise<void>((resolve, reject) => {
      current.once('error', reject)
      current.listen(port, '127.0.0.1', () => resolve())
    })
    const address = current.server.address()
    if (address && typeof address === 'object') port = address.port
  }

  await listen()
  return {
    get url() {
      return `smtp://127.0.0.1:${port}`
    },
    get port() {
      return port
    },
    received,
    async stop() {
      const current = server
      server = undefined
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
    },
    start: listen,
  }
}

export interface MailSinkOptions {
  /** The From address of every message the transport sends. */
  from?: string
  /** A mail provider's connection limit: the sink serves this many connections at once, and SMTP_URL says so. */
  maxConnections?: number
}

export interface MailSink {
  sink: SmtpSink
  /** Delivers over SMTP to `sink`, as the site's transport does with SMTP_URL set. */
  transport: MailTransport
  /** Closes the transport, then the sink. */
  stop(): Promise<void>
}

/** An SMTP sink and the mail transport that delivers to it. */
export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const { from = 'Events <events@example.com>', maxConnections } = options
  const sink = await startSmtpSink(maxConnections === undefined ? {} : { maxClients: maxConnections })
  const smtpUrl = maxConnections === undefined ? sink.url : `${sink.url}/?maxConnections=${maxConnections}`
  const transport = createMailTransport({ smtpUrl, dataDir: '/nonexistent', from })
  return {
    sink,
    transport,
    async stop() {
      transport.close()
      await sink.stop()
    },
  }
}

/** A fresh `startMailSink` for each test of the calling suite, stopped after it. */
export function useMailSink(options: MailSinkOptions = {}): { sink(): SmtpSink; transport(): MailTransport } {
  let current: MailSink | undefined
  const started = (): MailSink => {
    if (!current) throw new Error('useMailSink: the mail sink runs only inside a test')
    return current
  }
  beforeEach(async () => {
    current = await startMailSink(options)
  })
  afterEach(async () => {
    await current?.stop()
    current = undefined
  })
  return { sink: () => started().sink, transport: () => started().transport }
}

/** A PDF's text as poppler's pdftotext lays it out, whitespace collapsed and ligatures (ﬀ, ﬁ) spelt out. */
export function pdftotext(pdf: Uint8Array): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'pdftotext-'))
  try {
    const file = path.join(directory, 'document.pdf')
    writeFileSync(file, pdf)
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).normalize('NFKC').replace(/\s+/g, ' ')
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
