// The lifecycle of back-office accounts over HTTP against the built site, as a browser's form posts reach it: an owner
// deactivates a colleague whose open session is refused at its next request, reactivates them and changes their role;
// a member changes their own password and ends their other sessions; reset links work once and only the newest; the
// password rule says why it refuses; and nobody can lock an owner out by failing to sign in as them.
import { describe, expect, it } from 'vitest'
import { signInCookie, wrongTotpCode, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const LEAVER: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a long enough staff password' }
const MEMBER: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Staff', role: 'staff', password: 'she keeps a diary 7' }
const FORGETFUL: StaffAccount = { email: 'thabo@example.com', name: 'Thabo Staff', role: 'staff', password: 'he forgot this phrase' }
const MANAGER: StaffAccount = { email: 'mpho@example.com', name: 'Mpho Manager', role: 'manager', password: 'she approves with care' }
const CLERK: StaffAccount = { email: 'zanele@example.com', name: 'Zanele Staff', role: 'staff', password: 'she asks before acting' }
const GUARDED: StaffAccount = { email: 'ayanda@example.com', name: 'Ayanda Manager', role: 'manager', password: 'she guards her codes well' }

const { site, sink, url } = useBackOfficeSite([OWNER, LEAVER, MEMBER, FORGETFUL, MANAGER, CLERK, GUARDED])

function post(pathname: string, fields: Record<string, string>, { cookie = '', from = '198.51.100.200' }: { cookie?: string; from?: string } = {}) {
  return fetch(url(pathname), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: site().baseUrl, 'sec-fetch-site': 'same-origin', 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  })
}

const get = (pathname: string, cookie: string) => fetch(url(pathname), { redirect: 'manual', headers: { cookie } })

/** The id the staff page gives a member's forms. */
async function memberId(ownerCookie: string, email: string): Promise<string> {
  const page = await (await get('/admin/staff', ownerCookie)).text()
  // Each member's forms follow a heading naming them: <h3 id="member-ID">Name (e-mail)</h3>.
  const heading = page
    .split('<h3 id="member-')
    .slice(1)
    .find((part) => part.slice(0, part.indexOf('</h3>')).includes(email))
  if (!heading) throw new Error(`no forms for ${email} on the staff page`)
  return heading.slice(0, heading.indexOf('"'))
}

function resetLinkToken(text: string): string {
  const token = /\/admin\/set-password\?token=([\w%-]+)/.exec(text)?.[1]
  if (!token) throw new Error(`no set-password link in: ${text}`)
  return decodeURIComponent(token)
}

describe('back-office accounts over HTTP', () => {
  it('ends a deactivated member’s open session at its next request and refuses their sign-in; reactivated, they sign in again', async () => {
    const ownerCookie = await signInCookie(site().baseUrl, OWNER)
    const leaverCookie = await signInCookie(site().baseUrl, LEAVER)
    expect((await get('/admin/registrations', leaverCookie)).status).toBe(200)
    const id = await memberId(ownerCookie, LEAVER.email)

    const deactivated = await post('/admin/staff', { intent: 'member', memberId: id, change: 'deactivate' }, { cookie: ownerCookie })
    expect(deactivated.status).toBe(200)
    expect(await deactivated.text()).toContain('Sipho Staff is deactivated')
    const refused = await get('/admin/registrations', leaverCookie)
    expect(refused.status).toBe(302)
    expect(refused.headers.get('location')).toBe('/admin/sign-in?redirectTo=%2Fadmin%2Fregistrations')
    expect((await get('/admin/registrations.data', leaverCookie)).status).toBe(401)
    const signIn = await post('/admin/sign-in', { email: LEAVER.email, password: LEAVER.password }, { from: '198.51.100.201' })
    expect(signIn.status).toBe(400)
    expect(await signIn.text()).toContain('The e-mail address or password is wrong.')

    expect((await post('/admin/staff', { intent: 'member', memberId: id, change: 'set-role', role: 'manager' }, { cookie: ownerCookie })).status).toBe(200)
    expect((await post('/admin/staff', { intent: 'member', memberId: id, change: 'reactivate' }, { cookie: ownerCookie })).status).toBe(200)
    // A manager must use two-factor: signed in again, Sipho is sent to set it up before anything else.
    const again = await post('/admin/sign-in', { email: LEAVER.email, password: LEAVER.password }, { from: '198.51.100.202' })
    expect(again.status).toBe(302)
    const cookie = again.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    expect((await get('/admin/registrations', cookie)).headers.get('location')).toBe('/admin/two-factor')

    const log = await (await get('/admin/audit', ownerCookie)).text()
    for (const action of ['Staff deactivated', 'Staff role changed', 'Staff reactivated'])
      expect(log).toMatch(new RegExp(`<td>owner@example\\.com</td><td>${action}</td>`))
    // Staff may not change accounts.
    const memberCookie = await signInCookie(site().baseUrl, MEMBER)
    expect((await post('/admin/staff', { intent: 'member', memberId: id, change: 'deactivate' }, { cookie: memberCookie })).status).toBe(403)
  })

  it('keeps an owner who can sign in: an invited owner does not count, so the only owner cannot demote or deactivate themselves', async () => {
    const ownerCookie = await signInCookie(site().baseUrl, OWNER)
    const invited = await post('/admin/staff', { intent: 'invite', email: 'nomsa@example.com', name: 'Nomsa Owner', role: 'owner' }, { cookie: ownerCookie })
    expect(invited.status).toBe(200)
    // The page offers no forms for oneself; a hostile post names one's own id, which the page's data carries.
    const page = await (await get('/admin/staff', ownerCookie)).text()
    const self = /\\"selfId\\",\\"([\w-]+)\\"/.exec(page)?.[1] ?? ''
    expect(self).not.toBe('')
    const changes: Record<string, string>[] = [{ change: 'set-role', role: 'manager' }, { change: 'set-role', role: 'staff' }, { change: 'deactivate' }]
    for (const change of changes) {
      const refused = await post('/admin/staff', { intent: 'member', memberId: self, ...change }, { cookie: ownerCookie })
      expect(refused.status).toBe(400)
      expect(await refused.text()).toContain('No other active owner has signed in yet')
    }
    // Nothing changed: the owner still manages staff.
    expect((await get('/admin/staff', ownerCookie)).status).toBe(200)
  })

  it('changes one’s own password with the current one, ending the other sessions; refuses a weak one and says why', async () => {
    const laptop = await signInCookie(site().baseUrl, MEMBER)
    const phone = await signInCookie(site().baseUrl, MEMBER)
    const sessions = await (await get('/admin/account', laptop)).text()
    expect(sessions.match(/End this session/g)?.length).toBeGreaterThanOrEqual(1)
    expect(sessions).toContain('(this one)')

    const change = (currentPassword: string, newPassword: string) =>
      post('/admin/account', { intent: 'change-password', password: currentPassword, newPassword, confirmation: newPassword }, { cookie: laptop })
    for (const [weak, reason] of [
      ['password1234', 'This password is among the most commonly used ones'],
      ['aaaaaaaaaaaa', 'The password repeats too few characters'],
      ['lerato at example forever', 'The password contains your e-mail address'],
      ['summit business events!', 'The password contains the company’s name'],
      ['Summer2025!!', 'This password is too easy to guess.'],
      ['Gankutsuou1989', 'This password is in the lists of passwords leaked from other websites'],
    ]) {
      const refused = await change(MEMBER.password, weak ?? '')
      expect(refused.status, weak).toBe(400)
      expect(await refused.text(), weak).toContain(reason)
    }
    expect(await (await change('not my password at all', 'a new and better phrase')).text()).toContain('The current password is wrong.')

    const changed = await change(MEMBER.password, 'a new and better phrase')
    expect(changed.status).toBe(200)
    expect(await changed.text()).toContain('Your password is changed. Your other sessions have ended.')
    expect((await get('/admin', laptop)).status).toBe(200)
    expect((await get('/admin', phone)).status).toBe(302)
  })

  it('lists one’s sessions and ends another one', async () => {
    const laptop = await signInCookie(site().baseUrl, FORGETFUL)
    const phone = await signInCookie(site().baseUrl, FORGETFUL)
    const page = await (await get('/admin/account', laptop)).text()
    const other = /name="sessionId" value="([^"]+)"/.exec(page)?.[1] ?? ''
    expect(other).not.toBe('')
    const ended = await post('/admin/account', { intent: 'end-session', sessionId: other }, { cookie: laptop })
    expect(await ended.text()).toContain('That session has ended.')
    expect((await get('/admin', phone)).status).toBe(302)
    expect((await get('/admin', laptop)).status).toBe(200)
    // The second browser was new to the account: Thabo is told when and from where.
    const notice = await sink().waitFor(
      (mail) => mail.recipients.includes(FORGETFUL.email) && mail.parsed.subject?.startsWith('New sign-in to your') === true,
      15_000,
    )
    expect(notice.parsed.text).toMatch(/had not been used from before, on .+ \(South African time\), from the address 192\.0\.2\.\d+\./)
  })

  it('refuses passkey posts without a browser’s passkey in words, and another account’s or a wrong password’s, changing nothing', async () => {
    const cookie = await signInCookie(site().baseUrl, CLERK)
    const unavailable = 'Passkeys need JavaScript and a browser that supports them. Sign in with your password and code instead, or try another browser.'
    // A post without JavaScript: no answer from a browser's authenticator.
    const signIn = await post('/admin/sign-in', { intent: 'passkey', response: '' }, { from: '198.51.100.61' })
    expect(signIn.status).toBe(400)
    expect(signIn.headers.getSetCookie()).toEqual([])
    expect(await signIn.text()).toContain(unavailable)
    const add = await post('/admin/account', { intent: 'add-passkey', name: 'Laptop', response: '' }, { cookie })
    expect(add.status).toBe(400)
    expect(await add.text()).toContain(unavailable)
    // A forged answer naming a credential nobody has: one message, no session.
    const forged = await post(
      '/admin/sign-in',
      { intent: 'passkey', response: JSON.stringify({ id: 'bm8tc3VjaC1rZXk', response: {} }) },
      { from: '198.51.100.62' },
    )
    expect(forged.status).toBe(400)
    expect(forged.headers.getSetCookie().filter((line) => line.includes('session_token=') && !/max-age=0/i.test(line))).toEqual([])
    expect(await forged.text()).toContain('That passkey did not sign you in. Try again, or sign in with your password and code.')
    const wrongPassword = await post('/admin/account', { intent: 'passkey-options', password: 'not the password at all' }, { cookie })
    expect(wrongPassword.status).toBe(400)
    expect(wrongPassword.headers.getSetCookie().some((line) => line.includes('passkey_challenge'))).toBe(false)
    const unknown = await post('/admin/account', { intent: 'remove-passkey', passkeyId: 'someone-elses-passkey' }, { cookie })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('That passkey was removed already.')
    expect(await (await get('/admin/account', cookie)).text()).toContain('You have no passkeys yet.')
  })

  it('refuses an older reset link once a newer one was sent, and every link once a reset is done', async () => {
    const ask = () => post('/admin/forgot-password', { email: FORGETFUL.email }, { from: '198.51.100.210' })
    expect((await ask()).status).toBe(200)
    const first = await sink().waitFor((mail) => mail.recipients.includes(FORGETFUL.email) && mail.parsed.subject?.startsWith('Reset') === true, 15_000)
    expect((await ask()).status).toBe(200)
    const resetMails = () => sink().received.filter((mail) => mail.recipients.includes(FORGETFUL.email) && mail.parsed.subject?.startsWith('Reset') === true)
    await expect.poll(() => resetMails().length, { timeout: 15_000 }).toBe(2)
    const [older, newer] = resetMails().map((mail) => resetLinkToken(mail.parsed.text ?? ''))
    expect(older).toBe(resetLinkToken(first.parsed.text ?? ''))
    expect(first.parsed.text).toContain('The link works for 30 minutes.')

    const setPassword = (token: string, password: string) => post('/admin/set-password', { token, newPassword: password, confirmation: password })
    // A leaked password is refused with its reason, and the link still works.
    const leaked = await setPassword(newer ?? '', 'perasperaadastra')
    expect(leaked.status).toBe(400)
    expect(await leaked.text()).toContain('This password is in the lists of passwords leaked from other websites')
    const stale = await setPassword(older ?? '', 'he remembers this phrase')
    expect(stale.status).toBe(400)
    expect(await stale.text()).toContain('This link has expired or was already used. Ask for a new one.')
    const done = await setPassword(newer ?? '', 'he remembers this phrase')
    expect(done.status).toBe(302)
    expect((await setPassword(newer ?? '', 'and then another phrase')).status).toBe(400)
    await signInCookie(site().baseUrl, { email: FORGETFUL.email, password: 'he remembers this phrase' })
  })

  it('cannot be used to lock an owner out: failures from many addresses slow them, the owner still signs in and is told', async () => {
    for (let address = 1; address <= 8; address += 1) {
      const failed = await post('/admin/sign-in', { email: OWNER.email, password: `a wrong guess number ${address}` }, { from: `203.0.113.${address}` })
      expect(failed.status).toBe(400)
    }
    // An address that has been failing waits, even with the right password…
    const attacker = await post('/admin/sign-in', { email: OWNER.email, password: OWNER.password }, { from: '203.0.113.8' })
    expect(attacker.status).toBe(429)
    expect(await attacker.text()).toMatch(/Too many failed sign-ins from this connection\. Try again in \d+ (seconds|minutes)\./)
    // …while the owner, with the password and a code from their app, signs in from their own connection.
    expect(await signInCookie(site().baseUrl, OWNER)).toContain('session_token')
    const alert = await sink().waitFor(
      (mail) => mail.recipients.includes(OWNER.email) && /^Failed sign-ins to your .+ back-office account$/.test(mail.parsed.subject ?? ''),
      15_000,
    )
    expect(alert.parsed.text).toContain('There have been 5 failed sign-ins')
  })

  it('ends a sign-in at its wrong code: hammering codes with the password slows that address, the member still signs in, is told once, and an owner lifts the waits', async () => {
    const cookieOf = (response: Response) =>
      response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ')
    /** The password, then a wrong code on the page it leads to. */
    const hammer = async (from: string) => {
      const password = await post('/admin/sign-in', { email: GUARDED.email, password: GUARDED.password }, { from })
      if (password.status !== 200) return password
      const code = await post('/admin/sign-in', { step: 'code', code: await wrongTotpCode(GUARDED.email) }, { from, cookie: cookieOf(password) })
      expect(code.status).toBe(400)
      const page = await code.text()
      expect(page).toContain('The code is wrong, so this sign-in has ended. Sign in again with your password')
      // The form asks for the password again.
      expect(page).toContain('name="password"')
      return code
    }
    // Past five free failures the address waits 1 s, 2 s, 4 s… before each try, the password step included.
    let slowed = await hammer('203.0.113.50')
    for (let attempt = 1; attempt < 9 && slowed.status !== 429; attempt += 1) slowed = await hammer('203.0.113.50')
    expect(slowed.status).toBe(429)
    expect(await slowed.text()).toMatch(/Too many failed sign-ins from this connection\. Try again in \d+ (seconds|minutes)\./)
    // Past the auth library's own limit of 10 wrong codes, which locked the account for everyone.
    for (let address = 51; address <= 55; address += 1) expect((await hammer(`203.0.113.${address}`)).status).toBe(400)
    // The member, from their own connection, with the password and the code from their app.
    expect(await signInCookie(site().baseUrl, GUARDED)).toContain('session_token')
    const notice = await sink().waitFor(
      (mail) => mail.recipients.includes(GUARDED.email) && /^Wrong two-factor codes on your /.test(mail.parsed.subject ?? ''),
      15_000,
    )
    expect(notice.parsed.text).toMatch(/3 times since your last sign-in; the latest on .+ from the address 203\.0\.113\.50\./)
    expect(sink().received.filter((mail) => mail.recipients.includes(GUARDED.email) && /^Wrong two-factor codes/.test(mail.parsed.subject ?? ''))).toHaveLength(
      1,
    )

    // An owner lifts the waits: the slowed address may try again at once.
    const ownerCookie = await signInCookie(site().baseUrl, OWNER)
    const staffPage = await (await get('/admin/staff', ownerCookie)).text()
    expect(staffPage).toContain('Lift sign-in locks')
    const lifted = await post(
      '/admin/staff',
      { intent: 'member', memberId: await memberId(ownerCookie, GUARDED.email), change: 'lift-sign-in-locks' },
      { cookie: ownerCookie },
    )
    expect(lifted.status).toBe(200)
    expect(await lifted.text()).toContain('Ayanda Manager may sign in again at once')
    expect((await post('/admin/sign-in', { email: GUARDED.email, password: GUARDED.password }, { from: '203.0.113.50' })).status).toBe(200)
    expect(await (await get('/admin/audit', ownerCookie)).text()).toMatch(/<td>owner@example\.com<\/td><td>Sign in locks lifted<\/td>/)
  }, 180_000)

  it('refuses staff a cancellation, which they ask for instead and a manager approves', async () => {
    const registered = await fetch(url('/api/registrations'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    const { reference } = (await registered.json()) as RegistrationReceipt
    const cancelPage = `/admin/registrations/${reference}/cancel`
    const clerk = await signInCookie(site().baseUrl, CLERK)
    const screen = await (await get(cancelPage, clerk)).text()
    expect(screen).toContain('Ask a manager to cancel')
    expect(screen).not.toContain('Confirm cancellation')

    // The server checks again whatever the screen showed: a direct cancellation, a refund record and an erasure are refused.
    const direct = await post(cancelPage, { intent: 'cancel', scope: 'all', feePercent: '0', overrideReason: 'Agreed by phone' }, { cookie: clerk })
    expect(direct.status).toBe(403)
    expect(await direct.text()).toContain('Refused: this needs the manager or owner role')
    expect((await post(cancelPage, { intent: 'refund-paid-out', refundId: 'x', paidOutOn: '2025-03-01', bankReference: 'X' }, { cookie: clerk })).status).toBe(
      403,
    )
    expect(
      (await post('/admin/refunds', { intent: 'paid-out', refund: 'surplus:x', paidOutOn: '2025-03-01', bankReference: 'X' }, { cookie: clerk })).status,
    ).toBe(403)
    expect(await (await get('/admin/refunds', clerk)).text()).toContain('a manager or an owner records them as paid out')
    expect((await post('/admin/data-requests', { intent: 'erase', email: 'someone@example.com', confirm: 'on' }, { cookie: clerk })).status).toBe(403)

    const asked = await post(cancelPage, { intent: 'request', scope: 'all', feePercent: '0', overrideReason: 'Agreed by phone' }, { cookie: clerk })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('Your cancellation request is waiting for a manager’s approval.')
    const stillOpen = await (await get(`/admin/registrations/${reference}`, clerk)).text()
    expect(stillOpen).toContain('<dt>Status</dt><dd>Awaiting payment</dd>')

    const manager = await signInCookie(site().baseUrl, MANAGER)
    const pending = await (await get(cancelPage, manager)).text()
    expect(pending).toContain('Asked for by Zanele Staff')
    const requestId = /name="requestId" value="([^"]+)"/.exec(pending)?.[1] ?? ''
    expect((await post(cancelPage, { intent: 'approve', requestId }, { cookie: clerk })).status).toBe(403)
    const approved = await post(cancelPage, { intent: 'approve', requestId }, { cookie: manager })
    expect(approved.status).toBe(200)
    expect(await approved.text()).toMatch(/Approved\. Cancelled with a 0% fee\./)
    expect((await post(cancelPage, { intent: 'approve', requestId }, { cookie: manager })).status).toBe(404)

    const log = await (await get('/admin/audit', await signInCookie(site().baseUrl, OWNER))).text()
    expect(log).toMatch(/<td>zanele@example\.com<\/td><td>Cancellation requested<\/td>/)
    expect(log).toMatch(/<td>mpho@example\.com<\/td><td>Cancellation request approved<\/td>/)
    expect(log).toMatch(/<td>mpho@example\.com<\/td><td>Registration cancelled<\/td>/)
  })
})
