import { deliverDueMessages } from '@events/core'
import { TEST_BACKENDS, openTestDatabase, testSiteLinks, useMailSink, type TestDatabase } from '@events/core/test-support'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IDLE_EXPIRY_SECONDS, SIGN_IN_FAILED_MESSAGE, STAFF_CLIENT_IP_HEADER, type SignInLimits } from './auth.ts'
import type { StaffKysely } from './db/database.ts'
import { INVITATION_LINK_SECONDS, StaffAccountError, createStaff, type Staff, type StaffUser } from './staff.ts'

const HTTP_SITE = 'http://localhost:3000'
const HTTPS_SITE = 'https://events.example.com'
const links = testSiteLinks(HTTP_SITE)
/** A redirect within the site: the guard answers with the path of the site's link. */
const pathOf = (link: string) => link.slice(HTTP_SITE.length)
const OWNER = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner' as const, password: 'owner password 1234' }
const MEMBER = { email: 'member@example.com', name: 'Sipho Staff', role: 'staff' as const, password: 'member password 1234' }

/** A browser's cookie jar in miniature: keeps what Set-Cookie headers set, forgets what they expire. */
class CookieJar {
  private readonly cookies = new Map<string, string>()

  take(headers: Headers): this {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator).trim()
      const value = pair.slice(separator + 1).trim()
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return this
  }

  request(path = '/admin', ip = '198.51.100.7', site = HTTP_SITE): Request {
    // As a browser posts a same-origin form.
    const headers = new Headers({ [STAFF_CLIENT_IP_HEADER]: ip, origin: new URL(site).origin })
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    return new Request(`${site}${path}`, { headers })
  }
}

function fromIp(ip: string): Request {
  return new CookieJar().request('/admin/sign-in', ip)
}

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a Response to be thrown')
}

function totpSecret(totpURI: string): Uint8Array {
  return base32.decode(new URL(totpURI).searchParams.get('secret') ?? '')
}

describe.each(TEST_BACKENDS)('staff accounts on %s', (backend) => {
  let testDb: TestDatabase
  const { sink, transport } = useMailSink()
  let kysely: StaffKysely

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    kysely = testDb.db.kysely as unknown as StaffKysely
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const open = (options: { siteUrl?: string; signInLimits?: SignInLimits } = {}) =>
    createStaff({ db: testDb.db, links: options.siteUrl ? testSiteLinks(options.siteUrl) : links, siteName: 'Example Events', ...(options.signInLimits ? { signInLimits: options.signInLimits } : {}) })

  async function signedIn(staff: Staff, who: { email: string; password: string }, ip = '198.51.100.7'): Promise<CookieJar> {
    const jar = new CookieJar()
    const result = await staff.signIn(jar.request('/admin/sign-in', ip), who)
    expect(result.status).toBe('signed-in')
    return jar.take(result.headers)
  }

  async function deliverMail(): Promise<void> {
    await deliverDueMessages({ db: testDb.db, transport: transport(), log: () => undefined })
  }

  function linkTokenIn(text: string): string {
    const linkStart = links.staffSetPassword('')
    const at = text.indexOf(linkStart)
    const match = at < 0 ? null : /^[A-Za-z0-9_%-]+/.exec(text.slice(at + linkStart.length))
    if (!match) throw new Error(`no set-password link in: ${text}`)
    return decodeURIComponent(match[0])
  }

  it.each([
    ['http', HTTP_SITE, 'staff.session_token', false],
    ['https', HTTPS_SITE, '__Host-staff.session_token', true],
  ] as const)('signs in with the right password: an httpOnly, SameSite=Lax session cookie over %s', async (_scheme, siteUrl, cookieName, secure) => {
    const staff = await open({ siteUrl })
    await staff.createUser(OWNER)
    const result = await staff.signIn(new CookieJar().request('/admin/sign-in', '198.51.100.7', siteUrl), { email: 'Owner@Example.com ', password: OWNER.password })
    expect(result.status).toBe('signed-in')
    const cookie = result.headers.getSetCookie().find((line) => line.startsWith(`${cookieName}=`))
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/; HttpOnly/i)
    expect(cookie).toMatch(/; SameSite=Lax/i)
    expect(cookie).toMatch(/; Path=\//i)
    expect(cookie).not.toMatch(/; Domain=/i)
    expect(/; Secure/i.test(cookie ?? '')).toBe(secure)
    expect(cookie).toMatch(new RegExp(`; Max-Age=${IDLE_EXPIRY_SECONDS}`, 'i'))

    const session = await staff.getSession(new CookieJar().take(result.headers).request('/admin', '198.51.100.7', siteUrl))
    expect(session?.user).toMatchObject({ email: OWNER.email, name: OWNER.name, role: 'owner', twoFactorEnabled: false })
    const stored = await kysely.selectFrom('staff_sessions').selectAll().executeTakeFirstOrThrow()
    expect(stored.userId).toBe(session?.user.id)
    const lifetime = new Date(stored.expiresAt).getTime() - Date.now()
    expect(lifetime).toBeGreaterThan((IDLE_EXPIRY_SECONDS - 60) * 1000)
    expect(lifetime).toBeLessThanOrEqual(IDLE_EXPIRY_SECONDS * 1000)
    const account = await kysely.selectFrom('staff_accounts').selectAll().executeTakeFirstOrThrow()
    expect(account.password).not.toContain(OWNER.password)
  })

  it('answers a wrong password and an unknown address with the same one message', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const wrongPassword = await staff.signIn(fromIp('198.51.100.8'), { email: OWNER.email, password: 'not the password at all' })
    const unknownAddress = await staff.signIn(fromIp('198.51.100.8'), { email: 'nobody@example.com', password: OWNER.password })
    for (const result of [wrongPassword, unknownAddress]) {
      expect(result).toMatchObject({ status: 'refused', reason: 'wrong-credentials', message: SIGN_IN_FAILED_MESSAGE })
      expect(result.headers.getSetCookie()).toEqual([])
    }
    // The same through better-auth's own endpoint, as the routes mount it.
    const response = await staff.auth.handler(
      new Request(`${links.staffAuth()}/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: HTTP_SITE, [STAFF_CLIENT_IP_HEADER]: '198.51.100.9' },
        body: JSON.stringify({ email: OWNER.email, password: 'wrong password again' }),
      }),
    )
    expect(response.status).toBe(401)
    expect(((await response.json()) as { message: string }).message).toBe(SIGN_IN_FAILED_MESSAGE)
  })

  it('limits sign-in attempts per address', async () => {
    const staff = await open({ signInLimits: { perAddress: { max: 3, windowSeconds: 600 }, perAccount: { max: 100, windowSeconds: 600 } } })
    await staff.createUser(OWNER)
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect(await staff.signIn(fromIp('203.0.113.5'), { email, password: 'wrong password 123' })).toMatchObject({ reason: 'wrong-credentials' })
    }
    // Even the right password waits now, from that address only.
    expect(await staff.signIn(fromIp('203.0.113.5'), OWNER)).toMatchObject({ status: 'refused', reason: 'rate-limited' })
    expect((await staff.signIn(fromIp('203.0.113.6'), OWNER)).status).toBe('signed-in')
    const counters = await kysely.selectFrom('staff_rate_limits').selectAll().execute()
    expect(counters.map((row) => row.key).some((key) => key.includes('203.0.113.5'))).toBe(true)
  })

  it('limits failed sign-ins per account, whatever the address', async () => {
    const staff = await open({ signInLimits: { perAddress: { max: 100, windowSeconds: 600 }, perAccount: { max: 3, windowSeconds: 600 } } })
    await staff.createUser(OWNER)
    await staff.createUser(MEMBER)
    for (const ip of ['203.0.113.10', '203.0.113.11', '203.0.113.12']) {
      expect(await staff.signIn(fromIp(ip), { email: OWNER.email, password: 'wrong password 123' })).toMatchObject({ reason: 'wrong-credentials' })
    }
    expect(await staff.signIn(fromIp('203.0.113.13'), OWNER)).toMatchObject({ status: 'refused', reason: 'rate-limited' })
    expect((await staff.signIn(fromIp('203.0.113.13'), MEMBER)).status).toBe('signed-in')
    const refusals = await staff.listAudit()
    expect(refusals.entries[0]).toMatchObject({ action: 'sign-in', actor: { email: MEMBER.email } })
    expect(refusals.entries[1]).toMatchObject({ action: 'sign-in-refused', after: { email: OWNER.email, reason: 'too-many-failures' }, ipAddress: '203.0.113.13' })

    // A window later the account may try again, and a success clears its count.
    await staff.signIn(fromIp('203.0.113.13'), { email: 'guessed@example.com', password: 'wrong password 123' })
    await kysely.updateTable('staff_sign_in_failures').set({ window_start: new Date(Date.now() - 601_000).toISOString() }).execute()
    expect((await staff.signIn(fromIp('203.0.113.14'), OWNER)).status).toBe('signed-in')
    expect((await kysely.selectFrom('staff_sign_in_failures').select('email').execute()).map((row) => row.email)).toEqual(['guessed@example.com'])
    // The next failure clears the rows whose window has passed.
    await staff.signIn(fromIp('203.0.113.14'), { email: MEMBER.email, password: 'wrong password 123' })
    expect(await kysely.selectFrom('staff_sign_in_failures').select(['email', 'failures']).execute()).toEqual([{ email: MEMBER.email, failures: 1 }])
  })

  it('signs out this browser, and everywhere', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const laptop = await signedIn(staff, OWNER)
    const phone = await signedIn(staff, OWNER, '198.51.100.20')
    const tablet = await signedIn(staff, OWNER, '198.51.100.21')

    const laptopRequest = laptop.request()
    laptop.take(await staff.signOut(laptopRequest))
    expect(await staff.getSession(laptopRequest)).toBeNull()
    expect(await staff.getSession(laptop.request())).toBeNull()
    expect(await staff.getSession(phone.request())).not.toBeNull()

    await staff.signOutEverywhere(phone.request())
    expect(await staff.getSession(phone.request())).toBeNull()
    expect(await staff.getSession(tablet.request())).toBeNull()
    expect(await kysely.selectFrom('staff_sessions').selectAll().execute()).toEqual([])
    expect((await staff.listAudit()).entries[0]).toMatchObject({ action: 'signed-out-everywhere', actor: { email: OWNER.email } })
  })

  it('changes a password with the current one, ending the other sessions', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const laptop = await signedIn(staff, OWNER)
    const phone = await signedIn(staff, OWNER, '198.51.100.22')
    const change = { currentPassword: OWNER.password, newPassword: 'a changed password 99' }
    await expect(staff.changePassword(laptop.request(), { ...change, currentPassword: 'not the current one' })).rejects.toMatchObject({ code: 'wrong-password' })
    await expect(staff.changePassword(laptop.request(), { ...change, newPassword: 'too short' })).rejects.toMatchObject({ code: 'weak-password' })

    laptop.take(await staff.changePassword(laptop.request(), change))
    expect(await staff.getSession(laptop.request())).not.toBeNull()
    expect(await staff.getSession(phone.request())).toBeNull()
    expect(await staff.signIn(fromIp('198.51.100.23'), OWNER)).toMatchObject({ status: 'refused' })
    expect((await staff.signIn(fromIp('198.51.100.23'), { email: OWNER.email, password: change.newPassword })).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('password-changed')
  })

  it('ends a session after 8 idle hours and keeps an active one going', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const jar = await signedIn(staff, OWNER)
    const hour = 3600_000
    // better-auth keeps dates as ISO text on SQLite and as timestamptz on PostgreSQL.
    const stored = (date: Date) => (backend === 'postgres' ? date : date.toISOString())

    // Last used 7 hours ago: an hour left, and this request pushes the expiry 8 hours on.
    await kysely.updateTable('staff_sessions').set({ expiresAt: stored(new Date(Date.now() + hour)), updatedAt: stored(new Date(Date.now() - 7 * hour)) }).execute()
    const active = await staff.getSession(jar.request())
    expect(active).not.toBeNull()
    const renewed = await kysely.selectFrom('staff_sessions').select('expiresAt').executeTakeFirstOrThrow()
    expect(new Date(renewed.expiresAt).getTime() - Date.now()).toBeGreaterThan(7.9 * hour)
    expect(active?.headers.getSetCookie().some((line) => line.startsWith('staff.session_token='))).toBe(true)

    // Untouched for 8 hours: gone.
    await kysely.updateTable('staff_sessions').set({ expiresAt: stored(new Date(Date.now() - 1000)), updatedAt: stored(new Date(Date.now() - 8 * hour)) }).execute()
    expect(await staff.getSession(jar.request())).toBeNull()
    await expect(thrownResponse(staff.requireStaff(jar.request('/admin/registrations')))).resolves.toMatchObject({ status: 302 })
  })

  it('turns on TOTP two-factor, after which a sign-in needs the code', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const jar = await signedIn(staff, OWNER)
    await expect(staff.beginTwoFactorSetup(jar.request(), 'not my password at all')).rejects.toMatchObject({ code: 'wrong-password' })
    const { totpURI, backupCodes } = await staff.beginTwoFactorSetup(jar.request(), OWNER.password)
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Example%20Events:owner%40example\.com\?/)
    expect(backupCodes.length).toBeGreaterThan(0)
    const otp = createOTP(totpSecret(totpURI))
    const wrongCode = String((Number(await otp.totp()) + 1) % 1_000_000).padStart(6, '0')
    await expect(staff.confirmTwoFactorSetup(jar.request(), wrongCode)).rejects.toMatchObject({ code: 'wrong-code' })
    expect((await staff.getSession(jar.request()))?.user.twoFactorEnabled).toBe(false)
    jar.take(await staff.confirmTwoFactorSetup(jar.request(), await otp.totp()))
    expect((await staff.getSession(jar.request()))?.user.twoFactorEnabled).toBe(true)

    const browser = new CookieJar()
    const first = await staff.signIn(browser.request('/admin/sign-in', '198.51.100.30'), OWNER)
    expect(first.status).toBe('two-factor-required')
    browser.take(first.headers)
    expect(await staff.getSession(browser.request())).toBeNull()

    expect(await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.30'), wrongCode)).toMatchObject({
      status: 'refused',
      message: 'The code is wrong: type the six digits your app shows now.',
    })
    const second = await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.30'), await otp.totp())
    expect(second.status).toBe('signed-in')
    browser.take(second.headers)
    expect((await staff.getSession(browser.request()))?.user.email).toBe(OWNER.email)

    const actions = (await staff.listAudit()).entries.map((entry) => [entry.action, entry.after])
    expect(actions.slice(0, 3)).toEqual([
      ['sign-in', { secondFactor: true }],
      ['sign-in-failed', { secondFactor: true }],
      ['two-factor-enabled', true],
    ])
  })

  it('turns two-factor off again with the password, and lists every account owners first', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    await staff.inviteStaff(owner, { email: 'zola@example.com', name: 'Zola Staff', role: 'staff' })
    await staff.createUser({ email: 'abe@example.com', name: 'Abe Owner', role: 'owner', password: 'another long owner password' })
    expect((await staff.listStaff()).map((user) => [user.name, user.role])).toEqual([
      ['Abe Owner', 'owner'],
      [OWNER.name, 'owner'],
      ['Zola Staff', 'staff'],
    ])

    const jar = await signedIn(staff, OWNER)
    const { totpURI } = await staff.beginTwoFactorSetup(jar.request(), OWNER.password)
    jar.take(await staff.confirmTwoFactorSetup(jar.request(), await createOTP(totpSecret(totpURI)).totp()))
    await expect(staff.disableTwoFactor(jar.request(), 'not my password at all')).rejects.toMatchObject({ code: 'wrong-password' })
    jar.take(await staff.disableTwoFactor(jar.request(), OWNER.password))
    expect((await staff.getSession(jar.request()))?.user.twoFactorEnabled).toBe(false)
    expect((await staff.signIn(new CookieJar().request('/admin/sign-in', '198.51.100.31'), OWNER)).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('two-factor-disabled')
  })

  it('refuses a second step posted from another site (better-auth\'s Origin check)', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const jar = await signedIn(staff, OWNER)
    const { totpURI } = await staff.beginTwoFactorSetup(jar.request(), OWNER.password)
    jar.take(await staff.confirmTwoFactorSetup(jar.request(), await createOTP(totpSecret(totpURI)).totp()))

    const browser = new CookieJar()
    browser.take((await staff.signIn(browser.request('/admin/sign-in', '198.51.100.31'), OWNER)).headers)
    const forged = browser.request('/admin/sign-in', '198.51.100.31')
    forged.headers.set('origin', 'https://attacker.example')
    expect(await staff.verifyTwoFactorCode(forged, await createOTP(totpSecret(totpURI)).totp())).toMatchObject({ status: 'refused', reason: 'cross-site' })
    expect((await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.31'), await createOTP(totpSecret(totpURI)).totp())).status).toBe('signed-in')
  })

  it('lets an owner require two-factor of everyone: a member without it must set it up first', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    await staff.createUser(MEMBER)
    const member = await signedIn(staff, MEMBER)
    const memberSession = await staff.requireStaff(member.request())
    expect(await staff.twoFactorSetupRequired(memberSession.user)).toBe(false)
    await expect(staff.setTwoFactorRequired(memberSession.user, true)).rejects.toMatchObject({ code: 'owner-only' })
    expect(await staff.isTwoFactorRequired()).toBe(false)

    await staff.setTwoFactorRequired(owner, true)
    expect(await staff.isTwoFactorRequired()).toBe(true)
    expect(await staff.twoFactorSetupRequired(memberSession.user)).toBe(true)
    const redirect = await thrownResponse(staff.requireStaff(member.request('/admin/registrations')))
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe(pathOf(links.staffTwoFactorSetup()))
    expect((await staff.requireStaff(member.request('/admin/two-factor'), { allowPendingTwoFactorSetup: true })).user.email).toBe(MEMBER.email)

    const { totpURI } = await staff.beginTwoFactorSetup(member.request(), MEMBER.password)
    member.take(await staff.confirmTwoFactorSetup(member.request(), await createOTP(totpSecret(totpURI)).totp()))
    expect((await staff.requireStaff(member.request('/admin/registrations'))).user.twoFactorEnabled).toBe(true)

    const change = (await staff.listAudit()).entries.find((entry) => entry.action === 'setting-changed')
    expect(change).toMatchObject({ action: 'setting-changed', actor: { email: OWNER.email }, subjectId: 'require_two_factor', before: false, after: true })
  })

  it('guards routes by role: staff get 403 on owner-only pages, nobody signed in is sent to sign in', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    await staff.createUser(MEMBER)
    const owner = await signedIn(staff, OWNER)
    const member = await signedIn(staff, MEMBER, '198.51.100.40')

    expect((await staff.requireStaff(owner.request('/admin/staff'), { role: 'owner' })).user.role).toBe('owner')
    expect((await staff.requireStaff(member.request('/admin/registrations'))).user.role).toBe('staff')
    expect((await thrownResponse(staff.requireStaff(member.request('/admin/staff'), { role: 'owner' }))).status).toBe(403)

    const anonymous = await thrownResponse(staff.requireStaff(new CookieJar().request('/admin/registrations?page=2')))
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('location')).toBe(pathOf(links.staffSignIn('/admin/registrations?page=2')))
    expect((await thrownResponse(staff.requireStaff(new CookieJar().request('/admin/export.csv'), { unauthenticated: 'status' }))).status).toBe(401)
    const forged = new CookieJar().take(new Headers([['set-cookie', 'staff.session_token=forged.value; Path=/']]))
    expect((await thrownResponse(staff.requireStaff(forged.request('/admin')))).status).toBe(302)
  })

  it('records sign-ins, failed sign-ins, changes and what other packages report, newest first and paged', async () => {
    const staff = await open()
    const owner: StaffUser = await staff.createUser(OWNER)
    await staff.signIn(fromIp('198.51.100.50'), { email: OWNER.email, password: 'wrong password 123' })
    await signedIn(staff, OWNER, '198.51.100.51')
    await staff.recordAudit({
      actor: owner,
      action: 'registration-payment-recorded',
      subjectType: 'registration',
      subjectId: 'ABC123',
      before: { status: 'awaiting-payment' },
      after: { status: 'paid', amountCents: 977_385 },
    })

    const { entries, hasMore } = await staff.listAudit({ page: 1, pageSize: 3 })
    expect(hasMore).toBe(true)
    expect(entries.map((entry) => entry.action)).toEqual(['registration-payment-recorded', 'sign-in', 'sign-in-failed'])
    expect(entries[0]).toMatchObject({
      actor: { id: owner.id, email: OWNER.email },
      subjectType: 'registration',
      subjectId: 'ABC123',
      before: { status: 'awaiting-payment' },
      after: { status: 'paid', amountCents: 977_385 },
    })
    expect(entries[1]).toMatchObject({ actor: { id: owner.id }, subjectId: owner.id, ipAddress: '198.51.100.51' })
    expect(entries[2]).toMatchObject({ actor: null, subjectId: owner.id, after: { email: OWNER.email }, ipAddress: '198.51.100.50' })
    expect(Date.parse(entries[0]!.occurredAt)).toBeGreaterThanOrEqual(Date.parse(entries[2]!.occurredAt))

    const last = await staff.listAudit({ page: 2, pageSize: 3 })
    expect(last.hasMore).toBe(false)
    expect(last.entries).toMatchObject([{ action: 'staff-created', actor: null, subjectId: owner.id, after: { email: OWNER.email, name: OWNER.name, role: 'owner' } }])
  })

  it('lists the entries about given subjects only, newest first', async () => {
    const staff = await open()
    const owner: StaffUser = await staff.createUser(OWNER)
    const about = (action: string, subjectType: string, subjectId: string) => staff.recordAudit({ actor: owner, action, subjectType, subjectId })
    await about('registration-mail-resent', 'registration', 'ABC123')
    await about('registration-mail-resent', 'registration', 'XYZ789')
    await about('outbox-message-retried', 'outbox-message', 'message-1')
    await about('outbox-message-retried', 'outbox-message', 'ABC123')

    const subjects = [
      { subjectType: 'registration', subjectId: 'ABC123' },
      { subjectType: 'outbox-message', subjectId: 'message-1' },
    ]
    const { entries } = await staff.listAudit({ subjects })
    expect(entries.map((entry) => [entry.subjectType, entry.subjectId])).toEqual([
      ['outbox-message', 'message-1'],
      ['registration', 'ABC123'],
    ])
    expect((await staff.listAudit({ subjects: [] })).entries).toEqual([])
    expect((await staff.listAudit()).entries).toHaveLength(5)
  })

  it('refuses a short password, a duplicate address and a malformed one', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const attempts: Array<[Parameters<Staff['createUser']>[0], string]> = [
      [{ ...MEMBER, password: 'too short' }, 'weak-password'],
      [{ ...MEMBER, email: 'OWNER@example.com' }, 'duplicate-email'],
      [{ ...MEMBER, email: 'not an address' }, 'invalid-email'],
    ]
    for (const [input, code] of attempts) {
      await expect(staff.createUser(input)).rejects.toMatchObject({ name: 'StaffAccountError', code })
    }
    await expect(staff.createUser({ ...MEMBER, password: 'x' })).rejects.toBeInstanceOf(StaffAccountError)
    expect(await kysely.selectFrom('staff_users').select('email').execute()).toEqual([{ email: OWNER.email }])
  })

  it('invites a colleague by e-mail through the outbox; the link sets the first password', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const invited = await staff.inviteStaff(owner, { email: 'New.Colleague@example.com', name: 'Naledi New', role: 'staff' })
    expect(invited).toMatchObject({ email: 'new.colleague@example.com', role: 'staff' })
    await expect(staff.inviteStaff(invited, { email: 'friend@example.com', name: 'A Friend', role: 'owner' })).rejects.toMatchObject({ code: 'owner-only' })
    // No usable password until the link is used.
    expect(await staff.signIn(fromIp('198.51.100.60'), { email: 'new.colleague@example.com', password: '' })).toMatchObject({ status: 'refused' })

    await deliverMail()
    expect(sink().received).toHaveLength(1)
    const mail = sink().received[0]!
    expect(mail.recipients).toEqual(['new.colleague@example.com'])
    expect(await kysely.selectFrom('staff_users').select('email').where('email', '=', 'friend@example.com').execute()).toEqual([])
    expect(mail.parsed.subject).toBe('Your Example Events back-office account')
    const token = linkTokenIn(mail.parsed.text ?? '')
    expect(mail.parsed.text).toContain(links.staffSetPassword(token))
    expect(mail.parsed.text).toContain('The link works for 7 days.')
    const verification = await kysely.selectFrom('staff_verifications').select('expiresAt').executeTakeFirstOrThrow()
    expect(new Date(verification.expiresAt).getTime() - Date.now()).toBeGreaterThan((INVITATION_LINK_SECONDS - 60) * 1000)

    expect(await staff.resetPassword(token, 'short')).toMatchObject({ ok: false })
    expect(await staff.resetPassword('not-a-token', 'my own new password')).toMatchObject({ ok: false, message: expect.stringContaining('expired') })
    expect(await staff.resetPassword(token, 'my own new password')).toEqual({ ok: true })
    expect((await staff.signIn(fromIp('198.51.100.61'), { email: 'new.colleague@example.com', password: 'my own new password' })).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('staff-invited')
  })

  it('resets a forgotten password by e-mail through the outbox, ending the old sessions', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const oldSession = await signedIn(staff, OWNER)
    await staff.requestPasswordReset(fromIp('198.51.100.70'), 'nobody@example.com')
    await staff.requestPasswordReset(fromIp('198.51.100.70'), 'OWNER@example.com')
    await deliverMail()
    expect(sink().received).toHaveLength(1)
    const mail = sink().received[0]!
    expect(mail.recipients).toEqual([OWNER.email])
    expect(mail.parsed.subject).toBe('Reset your Example Events back-office password')
    expect(mail.parsed.text).toContain('The link works for 1 hour.')
    const token = linkTokenIn(mail.parsed.text ?? '')

    expect(await staff.resetPassword(token, 'a brand new password')).toEqual({ ok: true })
    expect(await staff.resetPassword(token, 'another new password')).toMatchObject({ ok: false })
    expect(await staff.getSession(oldSession.request())).toBeNull()
    expect(await staff.signIn(fromIp('198.51.100.71'), OWNER)).toMatchObject({ status: 'refused', message: SIGN_IN_FAILED_MESSAGE })
    expect((await staff.signIn(fromIp('198.51.100.71'), { email: OWNER.email, password: 'a brand new password' })).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('password-reset')
  })
})
