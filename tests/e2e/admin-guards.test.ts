// Every back-office route is guarded: walked from the route manifest, so a new /admin route is covered as it is added.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminRoutePaths, createStaffAccount, dataPath, signInCookie, type StaffAccount } from '../support/admin.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const STAFF: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a long enough staff password' }

/** Pages anyone may open: signing in, and choosing a password through an e-mailed link. */
const OPEN_PATHS = ['/admin/sign-in', '/admin/forgot-password', '/admin/set-password']
const OWNER_ONLY_PATHS = ['/admin/staff', '/admin/audit']
/** Pages a manager's (and an owner's), not staff's: correcting what a tax invoice names. */
const MANAGER_ONLY_PATHS = [/^\/admin\/registrations\/[^/]+\/company$/]

let site: RunningSite
let dataDir: string
/**
 * Values for the routes' parameters that name things that exist: a registration, its first delegate, its event; and a
 * credit note, which a registration nobody cancelled does not have.
 */
const routeParams: Record<string, string> = { delegateId: '1', eventId: 'event-legal-opinion', file: 'CN-000001.pdf', dealId: 'no-such-deal' }
/** Addresses a form posts to, which a page request is told to use the form for (405) once signed in. */
const POST_ONLY_PATHS = [/^\/admin\/reports\/accounting-export\.csv$/]

/**
 * Past the guard, these answer their page's own "not found": what they name is never made here (a credit note, a
 * quotation, an event's certificates, a sponsorship deal's invoice, a replaced tax invoice), or nothing is named (a statement of account without its company).
 */
const ABSENT_PATHS = [
  /\/credit-notes\//,
  /\/invoices\/[^/]+\.pdf$/,
  /^\/admin\/quotes\/[^/]+\.pdf$/,
  /^\/admin\/statements\/statement\.pdf$/,
  /\/certificates\.zip$/,
  /^\/admin\/sponsorship\/[^/]+\/invoice\.pdf$/,
]

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-admin-guards-'))
  await createStaffAccount(dataDir, OWNER)
  await createStaffAccount(dataDir, STAFF)
  site = await startSite({ env: { DATA_DIR: dataDir } })
  const registered = await fetch(`${site.baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody({ event: 'legalOpinion' })),
  })
  routeParams.reference = ((await registered.json()) as RegistrationReceipt).reference
})
afterAll(async () => {
  await site?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

const url = (pathname: string) => `${site.baseUrl}${pathname}`

const guardedRoutes = adminRoutePaths().filter((pathname) => !OPEN_PATHS.includes(pathname))
/** The guarded paths with their parameters filled in, read once beforeAll has made what they name. */
const guarded = () => guardedRoutes.map((pattern) => pattern.replace(/:(\w+)/g, (_match, name: string) => routeParams[name] ?? `unknown-${name}`))

describe('the back office’s guards', () => {
  it('finds the back-office routes in the route manifest', () => {
    expect(guardedRoutes).toEqual(
      expect.arrayContaining(['/admin', '/admin/two-factor', '/admin/sign-out', '/admin/registrations', '/admin/emails', ...OWNER_ONLY_PATHS]),
    )
    expect(
      guarded().every((pathname) => !pathname.includes('unknown-')),
      guarded().join(', '),
    ).toBe(true)
    expect(adminRoutePaths()).toEqual(expect.arrayContaining(OPEN_PATHS))
  })

  it('sends an anonymous page request to sign in, and answers its data request 401', async () => {
    for (const pathname of guarded()) {
      const page = await fetch(url(pathname), { redirect: 'manual' })
      expect(page.status, pathname).toBe(302)
      expect(page.headers.get('location'), pathname).toBe(`/admin/sign-in?redirectTo=${encodeURIComponent(pathname)}`)
      expect(page.headers.get('cache-control'), pathname).toBe('no-store')
      const data = await fetch(url(dataPath(pathname)), { redirect: 'manual' })
      expect(data.status, `${pathname} data`).toBe(401)
    }
  })

  it('answers a staff member 403 on the owner-only routes, and lets them open the rest', async () => {
    const staffCookie = await signInCookie(site.baseUrl, STAFF)
    const ownerCookie = await signInCookie(site.baseUrl, OWNER)
    for (const pathname of guarded()) {
      const asStaff = await fetch(url(pathname), { redirect: 'manual', headers: { cookie: staffCookie } })
      const asOwner = await fetch(url(pathname), { redirect: 'manual', headers: { cookie: ownerCookie } })
      const allowed =
        pathname === '/admin/sign-out'
          ? 302
          : POST_ONLY_PATHS.some((postOnly) => postOnly.test(pathname))
            ? 405
            : ABSENT_PATHS.some((absent) => absent.test(pathname))
              ? 404
              : 200
      const expected = OWNER_ONLY_PATHS.includes(pathname) || MANAGER_ONLY_PATHS.some((only) => only.test(pathname)) ? 403 : allowed
      expect(asStaff.status, `${pathname} as staff`).toBe(expected)
      expect(asOwner.status, `${pathname} as owner`).toBe(allowed)
    }
    for (const pathname of OWNER_ONLY_PATHS) {
      const data = await fetch(url(dataPath(pathname)), { redirect: 'manual', headers: { cookie: staffCookie } })
      expect(data.status, `${pathname} data as staff`).toBe(403)
    }
  })

  it('opens the sign-in, forgot-password and set-password pages to anyone, never cached, never indexed', async () => {
    for (const pathname of OPEN_PATHS) {
      const response = await fetch(url(pathname))
      expect(response.status, pathname).toBe(200)
      expect(response.headers.get('cache-control'), pathname).toBe('no-store')
      expect(response.headers.get('x-robots-tag'), pathname).toMatch(/noindex/)
      expect(await response.text(), pathname).toContain('<meta name="robots" content="noindex, nofollow"/>')
    }
  })

  it('refuses form posts another site made the browser send', async () => {
    const ownerCookie = await signInCookie(site.baseUrl, OWNER)
    const invite = (headers: Record<string, string>, email: string) =>
      fetch(url('/admin/staff'), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: ownerCookie, ...headers },
        body: new URLSearchParams({ intent: 'invite', name: 'Mallory', email, role: 'owner' }),
      })
    expect((await invite({ origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }, 'mallory1@example.com')).status).toBeGreaterThanOrEqual(400)
    expect((await invite({ 'sec-fetch-site': 'cross-site' }, 'mallory2@example.com')).status).toBe(403)
    expect((await invite({}, 'mallory3@example.com')).status).toBe(403)
    const signIn = await fetch(url('/admin/sign-in'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams({ email: OWNER.email, password: OWNER.password }),
    })
    expect(signIn.status).toBe(403)
    expect(signIn.headers.getSetCookie()).toEqual([])

    const accounts = await (await fetch(url('/admin/staff'), { headers: { cookie: ownerCookie } })).text()
    expect(accounts).toContain(STAFF.email)
    expect(accounts).not.toContain('mallory')
    const sameSite = await invite({ origin: site.baseUrl, 'sec-fetch-site': 'same-origin' }, 'thandi@example.com')
    expect(sameSite.status).toBe(200)
    expect(await sameSite.text()).toContain('An invitation is on its way to thandi@example.com')
  })

  it('counts sign-ins by the address Express trusts (TRUST_PROXY), not by an address header the client made up', async () => {
    const failed = await fetch(url('/admin/sign-in'), {
      method: 'POST',
      headers: { origin: site.baseUrl, 'x-forwarded-for': '198.51.100.44', 'x-staff-client-ip': '203.0.113.9' },
      body: new URLSearchParams({ email: STAFF.email, password: 'not the right password' }),
    })
    expect(failed.status).toBe(400)
    const ownerCookie = await signInCookie(site.baseUrl, OWNER)
    const log = await (await fetch(url('/admin/audit'), { headers: { cookie: ownerCookie } })).text()
    const failure = /<td>Sign in failed<\/td>[\s\S]*?<\/tr>/.exec(log)?.[0] ?? ''
    expect(failure).toContain('<td>198.51.100.44</td>')
    expect(log).not.toContain('203.0.113.9')
  })

  it('reaches none of better-auth’s endpoints over HTTP: no sign-up, no renaming oneself past the audit log', async () => {
    const staffCookie = await signInCookie(site.baseUrl, STAFF)
    const post = (pathname: string, body: unknown) =>
      fetch(url(pathname), {
        method: 'POST',
        headers: { origin: site.baseUrl, cookie: staffCookie, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.60' },
        body: JSON.stringify(body),
      })
    const attempts: Array<[string, unknown]> = [
      ['/admin/auth/sign-in/email', { email: OWNER.email, password: OWNER.password }],
      ['/admin/auth/sign-up/email', { email: 'eve@example.com', password: 'eve wants an account', name: 'Eve' }],
      ['/admin/auth/update-user', { name: 'Renamed Behind Your Back' }],
      ['/admin/auth/change-password', { currentPassword: STAFF.password, newPassword: 'changed without a trace', revokeOtherSessions: true }],
      ['/admin/auth/two-factor/disable', { password: STAFF.password }],
      ['/admin/auth/passkey/delete-passkey', { id: 'any' }],
      ['/admin/auth/passkey/update-passkey', { id: 'any', name: 'Renamed behind your back' }],
    ]
    // The site's router answers them as it answers any unknown back-office address: no session, no change.
    for (const [pathname, body] of attempts) {
      const response = await post(pathname, body)
      expect([404, 415], `${pathname}: ${response.status}`).toContain(response.status)
      expect(response.headers.getSetCookie(), pathname).toEqual([])
    }
    expect((await fetch(url('/admin/auth/list-sessions'), { headers: { cookie: staffCookie } })).status).toBe(404)
    expect((await fetch(url('/admin/auth/get-session'), { headers: { cookie: staffCookie } })).status).toBe(404)
    expect((await fetch(url('/admin/auth/passkey/list-user-passkeys'), { headers: { cookie: staffCookie } })).status).toBe(404)
    expect(await (await fetch(url('/admin'), { headers: { cookie: staffCookie } })).text()).toContain(`Signed in as <strong>${STAFF.name}</strong>`)
    await signInCookie(site.baseUrl, STAFF)
  })

  it('lets an owner require two-factor of everyone from Staff accounts, recorded in the audit log', async () => {
    const ownerCookie = await signInCookie(site.baseUrl, OWNER)
    const staffCookie = await signInCookie(site.baseUrl, STAFF)
    const post = (pathname: string, cookie: string, fields: Record<string, string>) =>
      fetch(url(pathname), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: site.baseUrl, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams(fields),
      })
    // The owner has two-factor on (an owner must): once it is required of everyone, a member without it may open nothing else.
    const turnedOn = await post('/admin/staff', ownerCookie, { intent: 'require-two-factor', required: 'yes' })
    expect(turnedOn.status).toBe(200)
    expect(await turnedOn.text()).toContain('Two-factor sign-in is now required for every account.')
    const home = await fetch(url('/admin'), { redirect: 'manual', headers: { cookie: staffCookie } })
    expect(home.status).toBe(302)
    expect(home.headers.get('location')).toBe('/admin/two-factor')
    expect(await (await fetch(url('/admin/two-factor'), { headers: { cookie: staffCookie } })).text()).toContain(
      'An owner requires two-factor sign-in for every account',
    )

    expect((await post('/admin/staff', ownerCookie, { intent: 'require-two-factor', required: 'no' })).status).toBe(200)
    expect((await fetch(url('/admin'), { redirect: 'manual', headers: { cookie: staffCookie } })).status).toBe(200)
    const log = await (await fetch(url('/admin/audit'), { headers: { cookie: ownerCookie } })).text()
    expect(log).toMatch(/<td>owner@example\.com<\/td><td>Setting changed<\/td><td>staff-setting [^<]+<\/td><td>yes<\/td><td>no<\/td>/)
    expect(log).toMatch(/<td>owner@example\.com<\/td><td>Two factor enabled<\/td>/)
  })
})
