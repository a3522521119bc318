// Back-office helpers for the browser and HTTP tests: accounts made by `pnpm admin`'s command, the /admin routes of the
// route manifest, and sign-in over plain HTTP.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import type { Page } from 'playwright-core'
import { createSiteLinks } from '../../apps/site/app/lib/site-links.ts'
import routes from '../../apps/site/app/routes.ts'
import { runAdminCommand } from '../../packages/staff/src/cli.ts'
import { afterAll, beforeAll } from 'vitest'
import { startSite, type RunningSite } from './site-server.ts'
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts'

type RouteConfigEntry = (typeof routes)[number]

export interface StaffAccount {
  email: string
  name: string
  role: 'owner' | 'staff'
  password: string
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
  const code = await runAdminCommand(args, {
    // The command reads the password from standard input to its end, which is all a ReadStream it needs here.
    stdin: Readable.from([`${account.password}\n`]) as NodeJS.ReadStream,
    stdout: collect,
    stderr: collect,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
  }, createSiteLinks)
  if (code !== 0) throw new Error(`pnpm admin create-user exited with ${code}:\n${output}`)
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

/**
 * Signs in over HTTP as a browser on the site would; the session cookie to send with later requests. Each sign-in
 * comes from its own address (X-Forwarded-For, trusted from loopback), so a file's many sign-ins stay under the
 * per-address limit.
 */
export async function signInCookie(baseUrl: string, account: Pick<StaffAccount, 'email' | 'password'>): Promise<string> {
  signIns += 1
  const response = await fetch(`${baseUrl}/admin/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: baseUrl, 'sec-fetch-site': 'same-origin', 'x-forwarded-for': `192.0.2.${signIns}` },
    body: new URLSearchParams({ email: account.email, password: account.password }),
  })
  if (response.status !== 302) throw new Error(`Sign-in as ${account.email} answered ${response.status}`)
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

/**
 * Opens `pathname` in the back office as a browser does: signed out, it is sent to the sign-in page, signs in there
 * and lands back at `pathname`.
 */
export async function signInAt(page: Page, baseUrl: string, pathname: string, account: Pick<StaffAccount, 'email' | 'password'>): Promise<void> {
  await page.goto(`${baseUrl}${pathname}`)
  if (new URL(page.url()).pathname === '/admin/sign-in') {
    await page.getByLabel('E-mail address').fill(account.email)
    await page.getByLabel('Password').fill(account.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
  }
  await page.waitForURL((address) => address.pathname === pathname)
}

export interface BackOfficeSite {
  /** The built site, its DATA_DIR holding the accounts. */
  site(): RunningSite
  /** The SMTP server the site sends its e-mails to. */
  sink(): SmtpSink
  url(pathname: string): string
}

/**
 * For a test file of the back office: an SMTP sink, a DATA_DIR with these accounts made by `pnpm admin create-user`,
 * and the built site on both (with `env` besides); all stopped and removed after the file.
 */
export function useBackOfficeSite(accounts: StaffAccount[], env: Record<string, string> = {}): BackOfficeSite {
  let site: RunningSite | undefined
  let sink: SmtpSink | undefined
  let dataDir: string | undefined
  beforeAll(async () => {
    sink = await startSmtpSink()
    dataDir = mkdtempSync(path.join(tmpdir(), 'events-back-office-'))
    for (const account of accounts) await createStaffAccount(dataDir, account)
    site = await startSite({ env: { DATA_DIR: dataDir, SMTP_URL: sink.url, ...env } })
  })
  afterAll(async () => {
    await site?.stop()
    await sink?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })
  const running = () => {
    if (!site) throw new Error('useBackOfficeSite(): the site is used before beforeAll started it')
    return site
  }
  return {
    site: running,
    sink: () => {
      if (!sink) throw new Error('useBackOfficeSite(): the SMTP sink is used before beforeAll started it')
      return sink
    },
    url: (pathname) => `${running().baseUrl}${pathname}`,
  }
}
