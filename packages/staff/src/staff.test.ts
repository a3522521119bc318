import { deliverDueMessages } from '@events/core'
import { TEST_BACKENDS, openTestDatabase, testSiteLinks, useMailSink, type TestDatabase } from '@events/core/test-support'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_SIGN_IN_LIMITS, IDLE_EXPIRY_SECONDS, SIGN_IN_FAILED_MESSAGE, STAFF_CLIENT_IP_HEADER, type SignInLimits } from './auth.ts'
import type { StaffKysely } from './db/database.ts'
import { INVITATION_LINK_SECONDS, StaffAccountError, createStaff, type Staff, type StaffUser } from './staff.ts'

const HTTP_SITE = 'http://localhost:3000'
const HTTPS_SITE = 'https://events.example.com'
const links = testSiteLinks(HTTP_SITE)
/** A redirect within the site: the guard answers with the path of the site's link. */
const pathOf = (link: string) => link.slice(HTTP_SITE.length)
const OWNER = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner' as const, password: 'olu picks a phrase 1234' }
const MEMBER = { email: 'member@example.com', name: 'Sipho Staff', role: 'staff' as const, password: 'sipho picks a phrase 1234' }

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
    createStaff({
      db: testDb.db,
      links: options.siteUrl ? testSiteLinks(options.siteUrl) : links,
      siteName: 'Example Events',
      ...(options.signInLimits ? { signInLimits: options.signInLimits } : {}),
    })

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
    const result = await staff.signIn(new CookieJar().request('/admin/sign-in', '198.51.100.7', siteUrl), {
      email: 'Owner@Example.com ',
      password: OWNER.password,
    })
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

  it('slows an address that keeps failing with growing delays, whatever the account', async () => {
    const limits: SignInLimits = {
      perAddress: { freeFailures: 2, maxDelaySeconds: 600 },
      perAccount: { freeFailures: 100, maxDelaySeconds: 600 },
      alertOwnerAfter: 100,
      alertMemberAfterCodes: 100,
      noticeSeconds: 900,
    }
    const staff = await open({ signInLimits: limits })
    await staff.createUser(OWNER)
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect(await staff.signIn(fromIp('203.0.113.5'), { email, password: 'wrong password 123' })).toMatchObject({ reason: 'wrong-credentials' })
    }
    // Even the right password waits now, from that address only.
    expect(await staff.signIn(fromIp('203.0.113.5'), OWNER)).toMatchObject({
      status: 'refused',
      reason: 'rate-limited',
      message: expect.stringMatching(/^Too many failed sign-ins from this connection\. Try again in \d+ seconds\.$/),
    })
    expect((await staff.signIn(fromIp('203.0.113.6'), OWNER)).status).toBe('signed-in')
    const blocked = async () =>
      new Date(
        (await kysely.selectFrom('staff_sign_in_throttle').select('blocked_until').where('key', '=', 'address:203.0.113.5').executeTakeFirstOrThrow())
          .blocked_until,
      ).getTime()
    const firstDelay = (await blocked()) - Date.now()
    expect(firstDelay).toBeLessThanOrEqual(1000)

    // The wait over, one more failure doubles it; the right password afterwards clears the address's record.
    await kysely
      .updateTable('staff_sign_in_throttle')
      .set({ blocked_until: new Date(Date.now() - 1).toISOString() })
      .execute()
    expect(await staff.signIn(fromIp('203.0.113.5'), { email: 'd@example.com', password: 'wrong password 123' })).toMatchObject({ reason: 'wrong-credentials' })
    expect((await blocked()) - Date.now()).toBeGreaterThan(1000)
    await kysely
      .updateTable('staff_sign_in_throttle')
      .set({ blocked_until: new Date(Date.now() - 1).toISOString() })
      .execute()
    expect((await staff.signIn(fromIp('203.0.113.5'), OWNER)).status).toBe('signed-in')
    expect(await kysely.selectFrom('staff_sign_in_throttle').select('key').where('key', '=', 'address:203.0.113.5').execute()).toEqual([])
  })

  it('holds back only the failing addresses of an account under attack, and e-mails its owner', async () => {
    const limits: SignInLimits = {
      perAddress: { freeFailures: 100, maxDelaySeconds: 600 },
      perAccount: { freeFailures: 2, maxDelaySeconds: 900 },
      alertOwnerAfter: 3,
      alertMemberAfterCodes: 100,
      noticeSeconds: 900,
    }
    const staff = await open({ signInLimits: limits })
    await staff.createUser(OWNER)
    for (const ip of ['203.0.113.10', '203.0.113.11', '203.0.113.12']) {
      expect(await staff.signIn(fromIp(ip), { email: OWNER.email, password: 'wrong password 123' })).toMatchObject({ reason: 'wrong-credentials' })
    }
    // A failing address waits, even with the right password; the owner, from a connection that has not failed, signs in.
    expect(await staff.signIn(fromIp('203.0.113.10'), OWNER)).toMatchObject({ status: 'refused', reason: 'rate-limited' })
    expect((await staff.signIn(fromIp('203.0.113.13'), OWNER)).status).toBe('signed-in')
    const refusals = await staff.listAudit()
    expect(refusals.entries[0]).toMatchObject({ action: 'sign-in', actor: { email: OWNER.email }, ipAddress: '203.0.113.13' })
    expect(refusals.entries[1]).toMatchObject({
      action: 'sign-in-refused',
      after: { email: OWNER.email, reason: 'account-throttled' },
      ipAddress: '203.0.113.10',
    })

    await deliverMail()
    const alert = sink().received.find((mail) => mail.parsed.subject === 'Failed sign-ins to your Example Events back-office account')
    expect(alert?.recipients).toEqual([OWNER.email])
    expect(alert?.parsed.text).toContain('There have been 3 failed sign-ins')
  })

  it('e-mails the member when their account is signed in to from a browser it has not seen before', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const notices = async () => {
      await deliverMail()
      return sink().received.filter((mail) => mail.parsed.subject === 'New sign-in to your Example Events back-office account')
    }
    // The first browser an account uses is no news; the same browser again neither.
    const laptop = await signedIn(staff, OWNER, '198.51.100.100')
    const deviceCookie = laptop.request().headers.get('cookie') ?? ''
    expect(deviceCookie).toMatch(/staff\.device=[\w-]{43}/)
    await staff.signOut(laptop.request())
    await signedIn(staff, OWNER, '198.51.100.101')
    const again = new CookieJar().take(new Headers({ 'set-cookie': `${/staff\.device=[\w-]+/.exec(deviceCookie)?.[0] ?? ''}; Path=/` }))
    await signedIn(staff, OWNER, '198.51.100.102')
    expect(await staff.signIn(again.request('/admin/sign-in', '198.51.100.103'), OWNER)).toMatchObject({ status: 'signed-in' })
    // Two cookie-less sign-ins above were new browsers: one notice each, naming the time and the address.
    const sent = await notices()
    expect(sent.map((mail) => /from the address ([\d.]+)\./.exec(mail.parsed.text ?? '')?.[1])).toEqual(['198.51.100.101', '198.51.100.102'])
    expect(sent[0]?.recipients).toEqual([OWNER.email])
    expect(sent[0]?.parsed.text).toMatch(/from a browser it had not been used from before, on \d{1,2} \w+ \d{4} at \d{2}:\d{2} \(South African time\)/)
    const cookie = (await staff.signIn(new CookieJar().request('/admin/sign-in', '198.51.100.104'), OWNER)).headers
      .getSetCookie()
      .find((line) => line.startsWith('staff.device='))
    expect(cookie).toMatch(/; Max-Age=34560000/i)
    expect(cookie).toMatch(/; HttpOnly/i)
  }, 120_000)

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
    expect((await staff.listAudit()).entries[0]).toMatchObject({ action: 'signed-out', actor: { email: OWNER.email } })

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
    await expect(staff.changePassword(laptop.request(), { ...change, currentPassword: 'not the current one' })).rejects.toMatchObject({
      code: 'wrong-password',
    })
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
    await kysely
      .updateTable('staff_sessions')
      .set({ expiresAt: stored(new Date(Date.now() + hour)), updatedAt: stored(new Date(Date.now() - 7 * hour)) })
      .execute()
    const active = await staff.getSession(jar.request())
    expect(active).not.toBeNull()
    const renewed = await kysely.selectFrom('staff_sessions').select('expiresAt').executeTakeFirstOrThrow()
    expect(new Date(renewed.expiresAt).getTime() - Date.now()).toBeGreaterThan(7.9 * hour)
    expect(active?.headers.getSetCookie().some((line) => line.startsWith('staff.session_token='))).toBe(true)

    // Untouched for 8 hours: gone.
    await kysely
      .updateTable('staff_sessions')
      .set({ expiresAt: stored(new Date(Date.now() - 1000)), updatedAt: stored(new Date(Date.now() - 8 * hour)) })
      .execute()
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
    // The setup's code is the step before's: a code signs in once, and the sign-in below uses the current one.
    jar.take(await staff.confirmTwoFactorSetup(jar.request(), await otp.hotp(Math.floor(Date.now() / 30_000) - 1)))
    expect((await staff.getSession(jar.request()))?.user.twoFactorEnabled).toBe(true)

    const browser = new CookieJar()
    const first = await staff.signIn(browser.request('/admin/sign-in', '198.51.100.30'), OWNER)
    expect(first.status).toBe('two-factor-required')
    browser.take(first.headers)
    expect(await staff.getSession(browser.request())).toBeNull()

    // A wrong code ends the sign-in: even the right code now needs the password first.
    expect(await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.30'), wrongCode)).toMatchObject({
      status: 'refused',
      reason: 'sign-in-ended',
      message:
        'The code is wrong, so this sign-in has ended. Sign in again with your password, then type the six digits your app shows now, or one of your backup codes.',
    })
    expect(await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.30'), await otp.totp())).toMatchObject({
      status: 'refused',
      reason: 'sign-in-ended',
      message: 'This sign-in has ended: sign in again with your password.',
    })
    browser.take((await staff.signIn(browser.request('/admin/sign-in', '198.51.100.30'), OWNER)).headers)
    const second = await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.30'), await otp.totp())
    expect(second.status).toBe('signed-in')
    browser.take(second.headers)
    expect((await staff.getSession(browser.request()))?.user.email).toBe(OWNER.email)

    const actions = (await staff.listAudit()).entries.map((entry) => [entry.action, entry.after])
    expect(actions.slice(0, 4)).toEqual([
      ['sign-in', { secondFactor: true }],
      ['sign-in-failed', { secondFactor: true }],
      ['sign-in-failed', { secondFactor: true, signInEnded: true }],
      ['two-factor-enabled', true],
    ])
  })

  it('turns two-factor off again with the password (not for owners), and lists every account owners first', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    await staff.createUser(MEMBER)
    await staff.inviteStaff(owner, { email: 'zola@example.com', name: 'Zola Staff', role: 'staff' })
    await staff.createUser({ email: 'abe@example.com', name: 'Abe Owner', role: 'owner', password: 'another long owner password' })
    expect((await staff.listStaff()).map((user) => [user.name, user.role, user.invitationPending])).toEqual([
      ['Abe Owner', 'owner', false],
      [OWNER.name, 'owner', false],
      [MEMBER.name, 'staff', false],
      ['Zola Staff', 'staff', true],
    ])

    const ownerJar = await signedIn(staff, OWNER)
    const ownerSetup = await staff.beginTwoFactorSetup(ownerJar.request(), OWNER.password)
    ownerJar.take(await staff.confirmTwoFactorSetup(ownerJar.request(), await createOTP(totpSecret(ownerSetup.totpURI)).totp()))
    await expect(staff.disableTwoFactor(ownerJar.request(), OWNER.password)).rejects.toMatchObject({
      message: 'As an owner you must keep two-factor sign-in on.',
    })

    const jar = await signedIn(staff, MEMBER)
    const { totpURI } = await staff.beginTwoFactorSetup(jar.request(), MEMBER.password)
    jar.take(await staff.confirmTwoFactorSetup(jar.request(), await createOTP(totpSecret(totpURI)).totp()))
    await expect(staff.disableTwoFactor(jar.request(), 'not my password at all')).rejects.toMatchObject({ code: 'wrong-password' })
    jar.take(await staff.disableTwoFactor(jar.request(), MEMBER.password))
    expect((await staff.getSession(jar.request()))?.user.twoFactorEnabled).toBe(false)
    expect((await staff.signIn(new CookieJar().request('/admin/sign-in', '198.51.100.31'), MEMBER)).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('two-factor-disabled')
  })

  it("refuses a second step posted from another site (better-auth's Origin check)", async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const jar = await signedIn(staff, OWNER)
    const { totpURI } = await staff.beginTwoFactorSetup(jar.request(), OWNER.password)
    jar.take(await staff.confirmTwoFactorSetup(jar.request(), await createOTP(totpSecret(totpURI)).hotp(Math.floor(Date.now() / 30_000) - 1)))

    const browser = new CookieJar()
    browser.take((await staff.signIn(browser.request('/admin/sign-in', '198.51.100.31'), OWNER)).headers)
    const forged = browser.request('/admin/sign-in', '198.51.100.31')
    forged.headers.set('origin', 'https://attacker.example')
    expect(await staff.verifyTwoFactorCode(forged, await createOTP(totpSecret(totpURI)).totp())).toMatchObject({ status: 'refused', reason: 'cross-site' })
    expect((await staff.verifyTwoFactorCode(browser.request('/admin/sign-in', '198.51.100.31'), await createOTP(totpSecret(totpURI)).totp())).status).toBe(
      'signed-in',
    )
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

    // An owner must turn two-factor on before anything else.
    expect((await thrownResponse(staff.requireStaff(owner.request('/admin/staff'), { role: 'owner' }))).headers.get('location')).toBe(
      pathOf(links.staffTwoFactorSetup()),
    )
    const { totpURI } = await staff.beginTwoFactorSetup(owner.request(), OWNER.password)
    owner.take(await staff.confirmTwoFactorSetup(owner.request(), await createOTP(totpSecret(totpURI)).totp()))
    expect((await staff.requireStaff(owner.request('/admin/staff'), { role: 'owner' })).user.role).toBe('owner')
    expect((await staff.requireStaff(owner.request('/admin/registrations'), { role: 'manager' })).user.role).toBe('owner')
    expect((await thrownResponse(staff.requireStaff(member.request('/admin/registrations/X/cancel'), { role: 'manager' }))).status).toBe(403)
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
    expect(last.entries).toMatchObject([
      { action: 'staff-created', actor: null, subjectId: owner.id, after: { email: OWNER.email, name: OWNER.name, role: 'owner' } },
    ])
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
      [{ ...MEMBER, name: '\u202E\u2066 ' }, 'invalid-name'],
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
    const invited = await staff.inviteStaff(owner, { email: 'New.Colleague@example.com', name: 'Naledi\u202E New', role: 'staff' })
    expect(invited).toMatchObject({ email: 'new.colleague@example.com', name: 'Naledi New', role: 'staff' })
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
    expect(mail.parsed.text).toContain('The link works for 30 minutes.')
    const token = linkTokenIn(mail.parsed.text ?? '')

    expect(await staff.resetPassword(token, 'a brand new password')).toEqual({ ok: true })
    expect(await staff.resetPassword(token, 'another new password')).toMatchObject({ ok: false })
    expect(await staff.getSession(oldSession.request())).toBeNull()
    expect(await staff.signIn(fromIp('198.51.100.71'), OWNER)).toMatchObject({ status: 'refused', message: SIGN_IN_FAILED_MESSAGE })
    expect((await staff.signIn(fromIp('198.51.100.71'), { email: OWNER.email, password: 'a brand new password' })).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('password-reset')
  })

  async function withTwoFactor(staff: Staff, who: { email: string; password: string }): Promise<{ otp: ReturnType<typeof createOTP>; backupCodes: string[] }> {
    const jar = await signedIn(staff, who, '198.51.100.90')
    const { totpURI, backupCodes } = await staff.beginTwoFactorSetup(jar.request(), who.password)
    const otp = createOTP(totpSecret(totpURI))
    // The setup uses the code of the step before, so that the test's sign-ins may use the current one.
    await staff.confirmTwoFactorSetup(jar.request(), await otp.hotp(Math.floor(Date.now() / 30_000) - 1))
    return { otp, backupCodes }
  }

  it('accepts a TOTP code once: the same code again, within its window, is refused', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const { otp } = await withTwoFactor(staff, OWNER)
    const code = await otp.totp()
    const first = new CookieJar()
    first.take((await staff.signIn(first.request('/admin/sign-in', '198.51.100.91'), OWNER)).headers)
    expect((await staff.verifyTwoFactorCode(first.request('/admin/sign-in', '198.51.100.91'), code)).status).toBe('signed-in')

    const replay = new CookieJar()
    replay.take((await staff.signIn(replay.request('/admin/sign-in', '198.51.100.92'), OWNER)).headers)
    const replayed = await staff.verifyTwoFactorCode(replay.request('/admin/sign-in', '198.51.100.92'), code)
    expect(replayed).toMatchObject({
      status: 'refused',
      reason: 'sign-in-ended',
      message:
        'That code was used already, so this sign-in has ended. Sign in again with your password, then wait for the next code your app shows, or use a backup code.',
    })
    replay.take(replayed.headers)
    expect(await staff.getSession(replay.request())).toBeNull()
    expect(await kysely.selectFrom('staff_sessions').select('id').execute()).toHaveLength(2)
    expect((await kysely.selectFrom('staff_used_totp_codes').selectAll().execute()).every((row) => !row.code_hash.includes(code))).toBe(true)
  })

  it('ends the sign-in at a wrong code and slows that address, never the member elsewhere; tells the member once in 15 minutes', async () => {
    const limits: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, perAddress: { freeFailures: 2, maxDelaySeconds: 600 }, alertMemberAfterCodes: 3 }
    const staff = await open({ signInLimits: limits })
    await staff.createUser(OWNER)
    const { otp } = await withTwoFactor(staff, OWNER)
    const wrongCode = async () => String((Number(await otp.totp()) + 1) % 1_000_000).padStart(6, '0')
    /** Someone holding the password types it, then a wrong code; the first time, they try one more code on that screen. */
    let retried = false
    const guess = async (ip: string) => {
      const jar = new CookieJar()
      const first = await staff.signIn(jar.request('/admin/sign-in', ip), OWNER)
      expect(first.status).toBe('two-factor-required')
      jar.take(first.headers)
      expect(await staff.verifyTwoFactorCode(jar.request('/admin/sign-in', ip), await wrongCode())).toMatchObject({ reason: 'sign-in-ended' })
      if (retried) return
      retried = true
      expect(await staff.verifyTwoFactorCode(jar.request('/admin/sign-in', ip), '000000')).toMatchObject({
        reason: 'sign-in-ended',
        message: 'This sign-in has ended: sign in again with your password.',
      })
    }
    for (let attempt = 0; attempt < 3; attempt += 1) await guess('203.0.113.40')
    // The attacker's address is slowed like one failing passwords (its wait applies to the password step too)…
    const address = await kysely.selectFrom('staff_sign_in_throttle').selectAll().where('key', '=', 'address:203.0.113.40').executeTakeFirstOrThrow()
    expect(address.failures).toBe(3)
    expect(new Date(address.blocked_until).getTime()).toBeGreaterThan(new Date(address.last_failure_at).getTime())
    await guess('203.0.113.41')
    // …and the library's own lock, which would refuse the member's right code too, is off.
    expect(await kysely.selectFrom('staff_two_factors').select(['failedVerificationCount', 'lockedUntil']).executeTakeFirstOrThrow()).toMatchObject({
      lockedUntil: null,
    })
    await deliverMail()
    const notices = () => sink().received.filter((mail) => mail.parsed.subject === 'Wrong two-factor codes on your Example Events back-office account')
    expect(notices()).toHaveLength(1)
    expect(notices()[0]?.recipients).toEqual([OWNER.email])
    expect(notices()[0]?.parsed.text).toMatch(
      /followed by a wrong two-factor code, 3 times since your last sign-in; the latest on .+ from the address 203\.0\.113\.40\./,
    )

    // Fifteen minutes on, codes still failing: one more notice.
    await kysely
      .updateTable('staff_sign_in_notices')
      .set({ sent_at: new Date(Date.now() - 15 * 60_000).toISOString() })
      .execute()
    await guess('203.0.113.42')
    await deliverMail()
    expect(notices()).toHaveLength(2)
    expect(notices()[1]?.parsed.text).toContain('5 times since your last sign-in')

    // The member, from their own connection, signs in with the password and a code.
    const member = new CookieJar()
    member.take((await staff.signIn(member.request('/admin/sign-in', '198.51.100.43'), OWNER)).headers)
    expect((await staff.verifyTwoFactorCode(member.request('/admin/sign-in', '198.51.100.43'), await otp.totp())).status).toBe('signed-in')
    const failed = (await staff.listAudit()).entries.filter((entry) => entry.action === 'sign-in-failed' && entry.ipAddress === '203.0.113.40')
    // Three wrong codes and the retry on an ended screen.
    expect(failed).toHaveLength(4)
  }, 120_000)

  it('lets an owner lift the waits a member’s failed sign-ins caused, in the audit log', async () => {
    const limits: SignInLimits = {
      ...DEFAULT_SIGN_IN_LIMITS,
      perAddress: { freeFailures: 2, maxDelaySeconds: 600 },
      perAccount: { freeFailures: 2, maxDelaySeconds: 900 },
    }
    const staff = await open({ signInLimits: limits })
    const owner = await staff.createUser(OWNER)
    const member = await staff.createUser(MEMBER)
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await staff.signIn(fromIp('198.51.100.44'), { email: MEMBER.email, password: `a mistyped phrase ${attempt}` })
    }
    expect(await staff.signIn(fromIp('198.51.100.44'), MEMBER)).toMatchObject({ status: 'refused', reason: 'rate-limited' })
    await expect(staff.changeMember({ ...owner, role: 'staff' }, member.id, { kind: 'lift-sign-in-locks' })).rejects.toMatchObject({ code: 'owner-only' })
    await staff.changeMember(owner, member.id, { kind: 'lift-sign-in-locks' })
    expect((await staff.signIn(fromIp('198.51.100.44'), MEMBER)).status).toBe('signed-in')
    const lifted = (await staff.listAudit()).entries.find((entry) => entry.action === 'sign-in-locks-lifted')
    expect(lifted).toMatchObject({ actor: { email: OWNER.email }, subjectId: member.id, before: { failures: expect.any(Number) }, after: { failures: 0 } })
    expect(lifted?.before).not.toEqual({ failures: 0 })
  })

  it('signs in with a backup code at the code step, once', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const { backupCodes } = await withTwoFactor(staff, OWNER)
    const [backupCode = ''] = backupCodes
    const signInWith = async (ip: string) => {
      const jar = new CookieJar()
      jar.take((await staff.signIn(jar.request('/admin/sign-in', ip), OWNER)).headers)
      return staff.verifyTwoFactorCode(jar.request('/admin/sign-in', ip), ` ${backupCode} `)
    }
    expect((await signInWith('198.51.100.93')).status).toBe('signed-in')
    expect(await signInWith('198.51.100.94')).toMatchObject({ status: 'refused', reason: 'sign-in-ended' })
  })

  it('deactivates a member: their open session ends at once, they cannot sign in, their history stays; reactivates', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const member = await staff.createUser(MEMBER)
    const memberJar = await signedIn(staff, MEMBER)
    await staff.recordAudit({ actor: member, action: 'registration-payment-recorded', subjectType: 'registration', subjectId: 'ABC123' })
    await expect(staff.changeMember(member, owner.id, { kind: 'deactivate' })).rejects.toMatchObject({ code: 'owner-only' })

    expect(await staff.changeMember(owner, member.id, { kind: 'deactivate' })).toMatchObject({ deactivated: true })
    expect(await staff.getSession(memberJar.request())).toBeNull()
    expect(await staff.signIn(fromIp('198.51.100.95'), MEMBER)).toMatchObject({ status: 'refused', message: SIGN_IN_FAILED_MESSAGE })
    const entries = (await staff.listAudit()).entries
    expect(entries.find((entry) => entry.action === 'staff-deactivated')).toMatchObject({ actor: { email: OWNER.email }, subjectId: member.id })
    expect(entries.find((entry) => entry.action === 'registration-payment-recorded')?.actor?.email).toBe(MEMBER.email)

    expect(await staff.changeMember(null, member.id, { kind: 'reactivate' })).toMatchObject({ deactivated: false })
    expect((await staff.signIn(fromIp('198.51.100.96'), MEMBER)).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.find((entry) => entry.action === 'staff-reactivated')).toMatchObject({ actor: null })
  })

  it('changes a role, never leaving the back office without an active owner', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const member = await staff.createUser(MEMBER)
    await expect(staff.changeMember(owner, owner.id, { kind: 'set-role', role: 'staff' })).rejects.toMatchObject({ code: 'last-owner' })
    await expect(staff.changeMember(owner, owner.id, { kind: 'deactivate' })).rejects.toMatchObject({ code: 'last-owner' })
    expect(await staff.changeMember(owner, member.id, { kind: 'set-role', role: 'manager' })).toMatchObject({ role: 'manager' })
    await expect(staff.changeMember(owner, member.id, { kind: 'set-role', role: 'boss' as 'owner' })).rejects.toMatchObject({ code: 'invalid-role' })
    expect((await staff.listAudit()).entries[0]).toMatchObject({ action: 'staff-role-changed', before: { role: 'staff' }, after: { role: 'manager' } })
    // A manager must use two-factor too.
    const jar = await signedIn(staff, MEMBER)
    expect((await thrownResponse(staff.requireStaff(jar.request('/admin/registrations')))).headers.get('location')).toBe(pathOf(links.staffTwoFactorSetup()))
  })

  // Each row: who the second owner is, and whether the first owner may then stop being one (demoted or deactivated).
  const SECOND_OWNERS = [
    { second: 'an invitation not yet accepted', expected: 'refused' },
    { second: 'an account that has never signed in', expected: 'refused' },
    { second: 'a deactivated owner who had signed in', expected: 'refused' },
    { second: 'an active owner who has signed in', expected: 'allowed' },
  ] as const
  const SECOND_OWNER = { email: 'second.owner@example.com', name: 'Second Owner', role: 'owner' as const, password: 'thandi chooses 4321 words' }
  const OWNER_REMOVALS = [{ kind: 'set-role', role: 'manager' }, { kind: 'set-role', role: 'staff' }, { kind: 'deactivate' }] as const

  it.each(SECOND_OWNERS)('with $second as the other owner, an owner stepping down is $expected', async ({ second, expected }) => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    await signedIn(staff, OWNER, '198.51.100.119')
    if (second === 'an invitation not yet accepted') {
      await staff.inviteStaff(owner, { email: SECOND_OWNER.email, name: SECOND_OWNER.name, role: 'owner' })
    } else {
      const other = await staff.createUser(SECOND_OWNER)
      if (second !== 'an account that has never signed in') await signedIn(staff, SECOND_OWNER, '198.51.100.120')
      if (second === 'a deactivated owner who had signed in') await staff.changeMember(owner, other.id, { kind: 'deactivate' })
    }
    for (const change of OWNER_REMOVALS) {
      for (const actor of [owner, null]) {
        const attempt = staff.changeMember(actor, owner.id, change)
        if (expected === 'refused') {
          await expect(attempt).rejects.toMatchObject({ code: 'last-owner' })
        } else {
          await attempt
          await staff.changeMember(null, owner.id, { kind: 'reactivate' })
          await staff.changeMember(null, owner.id, { kind: 'set-role', role: 'owner' })
        }
      }
    }
    const stepsDown = (await staff.listAudit()).entries.filter(
      (entry) => entry.subjectId === owner.id && (entry.action === 'staff-deactivated' || entry.action === 'staff-role-changed'),
    )
    // Allowed: each change was made by the owner and by the command line, and each time made an owner again: two entries.
    expect(stepsDown.length).toBe(expected === 'allowed' ? OWNER_REMOVALS.length * 2 * 2 : 0)
    await expect(staff.signIn(fromIp('198.51.100.121'), OWNER)).resolves.toMatchObject({ status: 'signed-in' })
  })

  it('two owners stepping each other down at once leave one owner', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const second = await staff.createUser(SECOND_OWNER)
    await signedIn(staff, OWNER, '198.51.100.122')
    await signedIn(staff, SECOND_OWNER, '198.51.100.123')
    for (const change of OWNER_REMOVALS) {
      const outcomes = await Promise.allSettled([staff.changeMember(owner, second.id, change), staff.changeMember(second, owner.id, change)])
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: { code: 'last-owner' } })
      const usableOwners = (await staff.listStaff()).filter((member) => member.role === 'owner' && !member.deactivated)
      expect(usableOwners).toHaveLength(1)
      for (const member of [owner, second]) {
        await staff.changeMember(null, member.id, { kind: 'reactivate' })
        await staff.changeMember(null, member.id, { kind: 'set-role', role: 'owner' })
      }
    }
  })

  it("resets a member's two-factor: their sessions end and they enrol again at the next sign-in", async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const member = await staff.createUser(MEMBER)
    await withTwoFactor(staff, MEMBER)
    const jar = new CookieJar()
    expect((await staff.signIn(jar.request('/admin/sign-in', '198.51.100.97'), MEMBER)).status).toBe('two-factor-required')

    expect(await staff.changeMember(owner, member.id, { kind: 'reset-two-factor' })).toMatchObject({ twoFactorEnabled: false, twoFactorEnrolRequired: true })
    expect(await kysely.selectFrom('staff_sessions').select('id').where('userId', '=', member.id).execute()).toEqual([])
    const again = await signedIn(staff, MEMBER, '198.51.100.98')
    expect((await thrownResponse(staff.requireStaff(again.request('/admin/registrations')))).headers.get('location')).toBe(pathOf(links.staffTwoFactorSetup()))
    const { totpURI } = await staff.beginTwoFactorSetup(again.request(), MEMBER.password)
    again.take(await staff.confirmTwoFactorSetup(again.request(), await createOTP(totpSecret(totpURI)).totp()))
    expect((await staff.requireStaff(again.request('/admin/registrations'))).user).toMatchObject({ twoFactorEnabled: true, twoFactorEnrolRequired: false })
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('two-factor-reset')
  })

  it('resends an invitation with a new link; the old one stops working', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const invited = await staff.inviteStaff(owner, { email: 'lindiwe@example.com', name: 'Lindiwe New', role: 'staff' })
    // The outbox sends several messages at once, so each link is delivered before the next is asked for: the sink then holds them in order.
    await deliverMail()
    await staff.changeMember(owner, invited.id, { kind: 'resend-invitation' })
    await deliverMail()
    const [first, second] = sink().received.map((mail) => linkTokenIn(mail.parsed.text ?? ''))
    expect(await staff.resetPassword(first ?? '', 'she chose a phrase 42')).toMatchObject({ ok: false })
    expect(await staff.resetPassword(second ?? '', 'she chose a phrase 42')).toEqual({ ok: true })
    await expect(staff.changeMember(owner, invited.id, { kind: 'resend-invitation' })).rejects.toMatchObject({ code: 'not-invited' })
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['staff-invitation-resent', 'password-set']))
  })

  it('keeps reset links hashed at rest; a newer link or a completed reset makes every other useless', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    for (let link = 0; link < 3; link += 1) {
      await staff.requestPasswordReset(fromIp('198.51.100.99'), OWNER.email)
      await deliverMail()
    }
    const tokens = sink().received.map((mail) => linkTokenIn(mail.parsed.text ?? ''))
    expect(tokens).toHaveLength(3)
    const stored = await kysely.selectFrom('staff_verifications').select(['identifier', 'expiresAt']).execute()
    expect(stored).toHaveLength(1)
    expect(stored[0]?.identifier).not.toContain(tokens[2])
    expect(new Date(stored[0]?.expiresAt ?? 0).getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000)
    expect(await staff.resetPassword(tokens[0] ?? '', 'a fresh pass phrase')).toMatchObject({ ok: false })
    expect(await staff.resetPassword(tokens[2] ?? '', 'a fresh pass phrase')).toEqual({ ok: true })
    expect(await kysely.selectFrom('staff_verifications').select('id').execute()).toEqual([])
  })

  it('refuses a reset link used more than 30 minutes after it was sent, and takes one used within them', async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const passwordHash = async () =>
      (await kysely.selectFrom('staff_accounts').select('password').where('userId', '=', owner.id).executeTakeFirstOrThrow()).password
    const hashBefore = await passwordHash()
    const sentLink = async () => {
      sink().received.length = 0
      await staff.requestPasswordReset(fromIp('198.51.100.98'), OWNER.email)
      await deliverMail()
      expect(sink().received).toHaveLength(1)
      return linkTokenIn(sink().received[0]!.parsed.text ?? '')
    }
    // Only the clock moves: the link's stored expiry is the one written when it was sent.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const sentAt = Date.now()
      const late = await sentLink()
      // A second before the 30 minutes are up the link still opens: the password rule answers, and the link stays.
      vi.setSystemTime(sentAt + 30 * 60_000 - 1000)
      const tooShort = await staff.resetPassword(late, 'too short')
      expect(tooShort).toMatchObject({ ok: false })
      expect(tooShort).not.toMatchObject({ message: 'This link has expired or was already used. Ask for a new one.' })
      // Two seconds later it is refused. (better-auth also sweeps out expired links, at most once a minute; the call
      // above just swept, so what refuses this one is the expiry check of the reset itself.)
      vi.setSystemTime(sentAt + 30 * 60_000 + 1000)
      expect(await staff.resetPassword(late, 'a fresh pass phrase')).toEqual({
        ok: false,
        message: 'This link has expired or was already used. Ask for a new one.',
      })
      expect(await passwordHash()).toBe(hashBefore)

      const resentAt = Date.now()
      const timely = await sentLink()
      vi.setSystemTime(resentAt + 29 * 60_000)
      expect(await staff.resetPassword(timely, 'a fresh pass phrase')).toEqual({ ok: true })
      expect(await passwordHash()).not.toBe(hashBefore)
    } finally {
      vi.useRealTimers()
    }
  })

  it('changes nothing when its audit row cannot be written: two-factor on or off, new backup codes, signing out', async () => {
    const staff = await open()
    await staff.createUser(MEMBER)
    await staff.createUser(OWNER)
    const { backupCodes } = await withTwoFactor(staff, MEMBER)
    const enrolling = await signedIn(staff, OWNER, '198.51.100.83')
    const { totpURI } = await staff.beginTwoFactorSetup(enrolling.request(), OWNER.password)
    const jar = new CookieJar()
    jar.take((await staff.signIn(jar.request('/admin/sign-in', '198.51.100.82'), MEMBER)).headers)
    jar.take((await staff.verifyTwoFactorCode(jar.request('/admin/sign-in', '198.51.100.82'), backupCodes[0] ?? '')).headers)
    const storedCodes = async () =>
      (
        await kysely
          .selectFrom('staff_two_factors')
          .select('backupCodes')
          .where('userId', '=', (await staff.findMember(MEMBER.email))?.id ?? '')
          .executeTakeFirstOrThrow()
      ).backupCodes
    const codesBefore = await storedCodes()

    await sql`alter table staff_audit_log rename to staff_audit_log_unwritable`.execute(kysely)
    try {
      await expect(staff.disableTwoFactor(jar.request(), MEMBER.password)).rejects.toThrow()
      await expect(staff.regenerateBackupCodes(jar.request(), MEMBER.password)).rejects.toThrow()
      await expect(staff.signOut(jar.request())).rejects.toThrow()
      await expect(staff.confirmTwoFactorSetup(enrolling.request(), await createOTP(totpSecret(totpURI)).totp())).rejects.toThrow()
    } finally {
      await sql`alter table staff_audit_log_unwritable rename to staff_audit_log`.execute(kysely)
    }
    expect((await staff.getSession(jar.request()))?.user.twoFactorEnabled).toBe(true)
    expect(await storedCodes()).toBe(codesBefore)
    expect((await staff.getSession(enrolling.request()))?.user.twoFactorEnabled).toBe(false)
  })

  it("changes no account when its audit row cannot be written: a member's role, deactivation, two-factor reset, one's own password", async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const member = await staff.createUser(MEMBER)
    const memberJar = await signedIn(staff, MEMBER, '198.51.100.84')
    const passwordHash = async () =>
      (await kysely.selectFrom('staff_accounts').select('password').where('userId', '=', member.id).executeTakeFirstOrThrow()).password

    const hashBefore = await passwordHash()
    await sql`alter table staff_audit_log rename to staff_audit_log_unwritable`.execute(kysely)
    try {
      await expect(staff.changeMember(owner, member.id, { kind: 'set-role', role: 'manager' })).rejects.toThrow()
      await expect(staff.changeMember(owner, member.id, { kind: 'deactivate' })).rejects.toThrow()
      await expect(staff.changeMember(owner, member.id, { kind: 'reset-two-factor' })).rejects.toThrow()
      await expect(staff.changePassword(memberJar.request(), { currentPassword: MEMBER.password, newPassword: 'a brand new phrase 5678' })).rejects.toThrow()
    } finally {
      await sql`alter table staff_audit_log_unwritable rename to staff_audit_log`.execute(kysely)
    }
    expect(await staff.findMember(MEMBER.email)).toMatchObject({ role: 'staff', deactivated: false, twoFactorEnrolRequired: false })
    expect((await staff.getSession(memberJar.request()))?.user).toMatchObject({ role: 'staff', twoFactorEnrolRequired: false })
    expect(await passwordHash()).toBe(hashBefore)
    expect((await staff.signIn(fromIp('198.51.100.85'), MEMBER)).status).toBe('signed-in')
  })

  it('makes new backup codes with the password; the old ones stop working', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const { backupCodes } = await withTwoFactor(staff, OWNER)
    const jar = new CookieJar()
    jar.take((await staff.signIn(jar.request('/admin/sign-in', '198.51.100.80'), OWNER)).headers)
    const signedIn = await staff.verifyTwoFactorCode(jar.request('/admin/sign-in', '198.51.100.80'), backupCodes[0] ?? '')
    jar.take(signedIn.headers)
    await expect(staff.regenerateBackupCodes(jar.request(), 'not my password at all')).rejects.toMatchObject({ code: 'wrong-password' })
    const fresh = await staff.regenerateBackupCodes(jar.request(), OWNER.password)
    expect(fresh).toHaveLength(10)
    const second = new CookieJar()
    second.take((await staff.signIn(second.request('/admin/sign-in', '198.51.100.81'), OWNER)).headers)
    expect(await staff.verifyTwoFactorCode(second.request('/admin/sign-in', '198.51.100.81'), backupCodes[1] ?? '')).toMatchObject({ status: 'refused' })
    second.take((await staff.signIn(second.request('/admin/sign-in', '198.51.100.81'), OWNER)).headers)
    expect((await staff.verifyTwoFactorCode(second.request('/admin/sign-in', '198.51.100.81'), fresh[0] ?? '')).status).toBe('signed-in')
    expect((await staff.listAudit()).entries.map((entry) => entry.action)).toContain('backup-codes-regenerated')
  })

  it.each([
    ['password1234', 'among the most commonly used'],
    ['aaaaaaaaaaaa', 'repeats too few characters'],
    ['short one', 'too short: use at least 12'],
    ['Member.Example 2026', 'contains your e-mail address'],
    ['example events forever', 'contains the company’s name'],
    ['perasperaadastra', 'leaked from other websites'],
  ])('refuses the new password %j and says why (%s)', async (password, reason) => {
    const staff = await open()
    await staff.createUser(MEMBER)
    const jar = await signedIn(staff, MEMBER)
    await expect(staff.changePassword(jar.request(), { currentPassword: MEMBER.password, newPassword: password })).rejects.toMatchObject({
      code: 'weak-password',
      message: expect.stringContaining(reason),
    })
    await expect(staff.createUser({ ...MEMBER, password })).rejects.toMatchObject({ code: 'weak-password' })
  })
})
