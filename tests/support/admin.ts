// Back-office helpers for the browser and HTTP tests: accounts made by `pnpm admin`'s command, the /admin routes of the
// route manifest, and sign-in over plain HTTP.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import type { Page } from 'playwright-core'
import { createSiteLinks } from '../../apps/site/app/lib/site-links.ts'
import routes from '../../apps/site/app/routes.ts'
import { openDatabase } from '../../packages/core/src/index.ts'
import { STAFF_CLIENT_IP_HEADER } from '../../packages/staff/src/auth.ts'
import { runAdminCommand } from '../../packages/staff/src/cli.ts'
import { createStaff } from '../../packages/staff/src/staff.ts'
import { afterAll, beforeAll } from 'vitest'
import { startSite, type RunningSite } from './site-server.ts'
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts'

type RouteConfigEntry = (typeof routes)[number]

export interface StaffAccount {
  email: string
  name: string
  role: 'owner' | 'manager' | 'staff'
  password: string
  /** Set up two-factor sign-in as the account is made; owners and managers must have it, so it is their default. */
  twoFactor?: boolean
}

const TOTP_STEP_MS = 30_000
/** How far into a step its predecessor's code is still used: past this, a loaded machine's check could fall after the step ends. */
const PREVIOUS_STEP_USED_UNTIL_MS = 20_000

/** The authenticator app of each account made with two-factor here, and the time steps whose code it has used. */
const authenticators = new Map<string, { otp: ReturnType<typeof createOTP>; usedSteps: Set<number> }>()

/**
 * A code from the account's authenticator app that it has not used yet: a code signs in once, and the site accepts
 * the codes of the step before and after the current one; when all three are used, the next step is waited for.
 */
export async function freshTotpCode(email: string): Promise<string> {
  const authenticator = authenticators.get(email)
  if (!authenticator) throw new Error(`${email} was not made with two-factor sign-in`)
  for (;;) {
    const now = Date.now()
    const step = Math.floor(now / TOTP_STEP_MS)
    // The step before is used only early in the current one, so it is still accepted when the post arrives.
    const candidates = now % TOTP_STEP_MS < PREVIOUS_STEP_USED_UNTIL_MS ? [step, step + 1, step - 1] : [step, step + 1]
    const free = candidates.find((candidate) => !authenticator.usedSteps.has(candidate))
    if (free !== undefined) {
      authenticator.usedSteps.add(free)
      return authenticator.otp.hotp(free)
    }
    await new Promise((resolve) => setTimeout(resolve, TOTP_STEP_MS - (now % TOTP_STEP_MS) + 50))
  }
}

/** Six digits that are not the code of the account's app in any step the site accepts now: a wrong code for sure. */
export async function wrongTotpCode(email: string): Promise<string> {
  const authenticator = authenticators.get(email)
  if (!authenticator) throw new Error(`${email} was not made with two-factor sign-in`)
  const step = Math.floor(Date.now() / TOTP_STEP_MS)
  const accepted = new Set(await Promise.all([step - 1, step, step + 1, step + 2].map((candidate) => authenticator.otp.hotp(candidate))))
  let guess = 0
  while (accepted.has(String(guess).padStart(6, '0'))) guess += 1
  return String(guess).padStart(6, '0')
}

/** Turns two-factor sign-in on for an account as its owner would on the two-factor page, keeping its app here. */
async function enrolTwoFactor(dataDir: string, databaseUrl: string, account: StaffAccount): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl })
  try {
    const links = createSiteLinks('http://localhost:3000')
    const staff = await createStaff({ db, links })
    const request = (cookie?: string) =>
      new Request('http://localhost:3000/admin/two-factor', {
        headers: { origin: 'http://localhost:3000', [STAFF_CLIENT_IP_HEADER]: '192.0.2.250', ...(cookie ? { cookie } : {}) },
      })
    const signedIn = await staff.signIn(request(), account)
    if (signedIn.status !== 'signed-in') throw new Error(`${account.email} could not sign in to set up two-factor`)
    const cookie = signedIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const { totpURI } = await staff.beginTwoFactorSetup(request(cookie), account.password)
    const otp = createOTP(base32.decode(new URL(totpURI).searchParams.get('secret') ?? ''))
    // The step before leaves the current and next steps' codes to sign-ins, while it is still safely accepted.
    const now = Date.now()
    const step = Math.floor(now / TOTP_STEP_MS) - (now % TOTP_STEP_MS < PREVIOUS_STEP_USED_UNTIL_MS ? 1 : 0)
    await staff.confirmTwoFactorSetup(request(cookie), await otp.hotp(step))
    authenticators.set(account.email, { otp, usedSteps: new Set([step]) })
  } finally {
    await db.close()
  }
}

/**
 * Creates a back-office account as `pnpm admin create-user --password-stdin` does, in DATA_DIR's SQLite database or
 * in the PostgreSQL database `databaseUrl` names. The command runs in this process: packages/staff/src/cli.test.ts
 * runs it as its own process, and starting Node for every account of every file cost seconds each.
 */
export async function createStaffAccount(dataDir: string, account: StaffAccount, { databaseUrl = '' }: { databaseUrl?: string } = {}): Promise<void> {
  const args = ['create-user', '--email', account.email, '--name', account.name, '--role', account.role, '--password-stdin']
  let output = ''
  const collect = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString()
      done()
    },
  })
  const code = await runAdminCommand(
    args,
    {
      // The command reads the password from standard input to its end, which is all a ReadStream it needs here.
      stdin: Readable.from([`${account.password}\n`]) as NodeJS.ReadStream,
      stdout: collect,
      stderr: collect,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    },
    createSiteLinks,
  )
  if (code !== 0) throw new Error(`pnpm admin create-user exited with ${code}:\n${output}`)
  if (account.twoFactor ?? account.role !== 'staff') await enrolTwoFactor(dataDir, databaseUrl, account)
}

function flatten(entries: readonly RouteConfigEntry[], parentPath: string): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => {
    const path = entry.index ? parentPath : [parentPath, entry.path].filter((part) => part && part !== '/').join('/')
    return [{ path: `/${path}`.replace(/\/+/g, '/'), file: entry.file }, ...flatten(entry.children ?? [], path)]
  })
}

/** Every page path of the back office, read from the site's route manifest (apps/site/app/routes.ts). */
export function adminRoutePaths(): string[] {
  const paths = flatten(routes, '')
    .filter((route) => route.file.startsWith('routes/admin/') && route.file !== 'routes/admin/layout.tsx')
    .map((route) => route.path)
  return [...new Set(paths)]
}

/** The single-fetch data address React Router's browser code asks for a page's loader data. */
export function dataPath(pagePath: string): string {
  return pagePath === '/' ? '/_root.data' : `${pagePath}.data`
}

let signIns = 0

/** The Cookie header a browser sends after these Set-Cookie lines (and the cookies it had). */
function cookieHeader(setCookies: string[], before = ''): string {
  const jar = new Map(before ? before.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const) : [])
  for (const line of setCookies) {
    const pair = line.split(';')[0] ?? ''
    jar.set(pair.slice(0, pair.indexOf('=')), pair)
  }
  return [...jar.values()].join('; ')
}

/**
 * Signs in over HTTP as a browser on the site would, with the code step for an account with two-factor; the session
 * cookie to send with later requests. Each sign-in comes from its own address (X-Forwarded-For, trusted from
 * loopback), so a file's many sign-ins stay clear of the per-address throttle.
 */
export async function signInCookie(baseUrl: string, account: Pick<StaffAccount, 'email' | 'password'>): Promise<string> {
  signIns += 1
  const post = (fields: Record<string, string>, cookie = '') =>
    fetch(`${baseUrl}/admin/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: baseUrl, 'sec-fetch-site': 'same-origin', 'x-forwarded-for': `192.0.2.${signIns}`, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields),
    })
  let response = await post({ email: account.email, password: account.password })
  if (response.status === 200 && authenticators.has(account.email)) {
    response = await post({ step: 'code', code: await freshTotpCode(account.email) }, cookieHeader(response.headers.getSetCookie()))
  }
  if (response.status !== 302) throw new Error(`Sign-in as ${account.email} answered ${response.status}`)
  return cookieHeader(response.headers.getSetCookie())
}

/**
 * Opens `pathname` in the back office with a session `signInCookie` made, skipping the sign-in page: for a file whose
 * tests open other screens many times as an account with two-factor. Each sign-in spends a code of a 30 s step and
 * three steps are accepted, so signing in for every test would wait for fresh codes (about 30 s every third time).
 */
export async function openWithSession(page: Page, baseUrl: string, pathname: string, cookie: string): Promise<void> {
  await page
    .context()
    .addCookies(cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url: baseUrl })))
  await page.goto(`${baseUrl}${pathname}`)
  if (new URL(page.url()).pathname !== new URL(pathname, baseUrl).pathname) throw new Error(`The session did not open ${pathname}: at ${page.url()}`)
}

/**
 * Opens `pathname` in the back office as a browser does: signed out, it is sent to the sign-in page, signs in there
 * (with a code from its app for an account with two-factor) and lands back at `pathname`.
 */
export async function signInAt(page: Page, baseUrl: string, pathname: string, account: Pick<StaffAccount, 'email' | 'password'>): Promise<void> {
  await page.goto(`${baseUrl}${pathname}`)
  if (new URL(page.url()).pathname === '/admin/sign-in') {
    await page.getByLabel('E-mail address').fill(account.email)
    await page.getByLabel('Password').fill(account.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    if (authenticators.has(account.email)) await enterTotpCode(page, account.email)
  }
  await page.waitForURL((address) => address.pathname === pathname)
}

/**
 * Records a bank transfer of everything a registration owes, as staff would on its payment form (`page` signed in),
 * dated `receivedOn`; waits until the registration's page confirms it.
 */
export async function recordFullTransfer(page: Page, baseUrl: string, reference: string, receivedOn: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/registrations/${reference}/payments/new`)
  const outstanding = /Outstanding\s+R\s*([\d\s.,]+\.\d\d)/.exec(await page.locator('main').innerText())![1]!
  await page.getByLabel('Amount received (rand)').fill(outstanding.replace(/[^\d.]/g, ''))
  await page.getByLabel('Date received').fill(receivedOn)
  await page.getByLabel('Bank reference').fill(`FULL ${reference}`)
  await page.getByRole('button', { name: 'Record the transfer' }).click()
  await page.waitForURL((address) => address.pathname === `/admin/registrations/${reference}` && address.searchParams.get('recorded') === 'payment')
}

/** The sign-in page's second step: a fresh code from the account's app, then Continue. */
export async function enterTotpCode(page: Page, email: string): Promise<void> {
  const field = page.getByLabel('Code from your authenticator app')
  await field.waitFor()
  await field.fill(await freshTotpCode(email))
  await page.getByRole('button', { name: 'Continue' }).click()
}

export interface BackOfficeData {
  /** The DATA_DIR holding the accounts. */
  dataDir(): string
  /** The SMTP server the sites started on it send their e-mails to. */
  sink(): SmtpSink
  /** The environment of a site on that data directory and SMTP server. */
  siteEnv(): Record<string, string>
}

/**
 * For a test file of the back office that starts its own sites (one, or several with the business clock moved): an
 * SMTP sink and a DATA_DIR with these accounts made by `pnpm admin create-user`; both removed after the file.
 */
export function useBackOfficeData(accounts: StaffAccount[]): BackOfficeData {
  let sink: SmtpSink | undefined
  let dataDir: string | undefined
  beforeAll(async () => {
    sink = await startSmtpSink()
    dataDir = mkdtempSync(path.join(tmpdir(), 'events-back-office-'))
    for (const account of accounts) await createStaffAccount(dataDir, account)
  })
  afterAll(async () => {
    await sink?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useBackOfficeData(): used before beforeAll started it')
    return value
  }
  return {
    dataDir: () => started(dataDir),
    sink: () => started(sink),
    siteEnv: () => ({ DATA_DIR: started(dataDir), SMTP_URL: started(sink).url }),
  }
}

export interface BackOfficeSite {
  /** The built site, its DATA_DIR holding the accounts. */
  site(): RunningSite
  /** The SMTP server the site sends its e-mails to. */
  sink(): SmtpSink
  url(pathname: string): string
  /**
   * Opens `pathname` in `page` as `account`, with a session signed in once for the file (openWithSession): for tests
   * of other screens than the sign-in, which would otherwise wait for fresh two-factor codes.
   */
  openAs(page: Page, pathname: string, account: StaffAccount): Promise<void>
}

/** useBackOfficeData with the built site started on it (with `env` besides) for the whole file. */
export function useBackOfficeSite(accounts: StaffAccount[], env: Record<string, string> = {}): BackOfficeSite {
  const backOffice = useBackOfficeData(accounts)
  let site: RunningSite | undefined
  beforeAll(async () => {
    site = await startSite({ env: { ...backOffice.siteEnv(), ...env } })
  })
  afterAll(async () => {
    await site?.stop()
  })
  const running = () => {
    if (!site) throw new Error('useBackOfficeSite(): the site is used before beforeAll started it')
    return site
  }
  const sessions = new Map<string, string>()
  const openAs = async (page: Page, pathname: string, account: StaffAccount) => {
    const session = sessions.get(account.email) ?? (await signInCookie(running().baseUrl, account))
    sessions.set(account.email, session)
    await openWithSession(page, running().baseUrl, pathname, session)
  }
  return { site: running, sink: backOffice.sink, url: (pathname) => `${running().baseUrl}${pathname}`, openAs }
}
