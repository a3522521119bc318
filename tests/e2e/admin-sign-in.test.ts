// The back office in Chromium against the real site: an owner made with `pnpm admin` signs in, invites a colleague
// whose invitation reaches a real SMTP server, the colleague chooses a password through its link and signs in, and
// the audit log shows it all to the owner only. Then the same sign-in, with two-factor, with JavaScript off.
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { enterTotpCode, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const FORGETFUL: StaffAccount = { email: 'thabo@example.com', name: 'Thabo Staff', role: 'staff', password: 'he forgot this phrase' }
const COLLEAGUE = { email: 'naledi@example.com', name: 'Naledi Staff', password: 'she chose this passphrase' }
const CAREFUL: StaffAccount = { email: 'lindiwe@example.com', name: 'Lindiwe Staff', role: 'staff', password: 'she keeps a second factor' }

const browser = useBrowser()
const { site, sink, url } = useBackOfficeSite([OWNER, FORGETFUL, CAREFUL])

async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page), `axe on ${new URL(page.url()).pathname}`).toEqual([])
}

/**
 * Collects the page's console errors (CSP violations among them) and script errors. The browser also reports each
 * refused answer as a failed resource; the refusals this test expects (a wrong password: 400) are not faults.
 */
function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('status of 400')) errors.push(`${message.text()} at ${page.url()}`)
  })
  page.on('pageerror', (error) => errors.push(`${error.message} at ${page.url()}`))
  return errors
}

async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.getByLabel('E-mail address').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

describe('the back office in a browser', () => {
  it('an owner signs in and invites a colleague, who sets a password, signs in and may not read the audit log', async () => {
    const owner = await openPage(browser(), 'desktop')
    const ownerErrors = collectErrors(owner)
    await owner.goto(url('/admin/audit'))
    await owner.waitForURL((address) => address.pathname === '/admin/sign-in')
    await waitForHydration(owner)
    await expectAccessible(owner)
    await signIn(owner, { email: OWNER.email, password: 'not the right password' })
    expect(await owner.getByRole('alert').innerText()).toBe('The e-mail address or password is wrong.')
    await signIn(owner, OWNER)
    // An owner must use two-factor sign-in: the password is followed by a code from the app.
    await enterTotpCode(owner, OWNER.email)
    await owner.waitForURL((address) => address.pathname === '/admin/audit')
    await owner.getByRole('link', { name: 'Back office' }).click()
    await owner.waitForURL((address) => address.pathname === '/admin')
    await owner.locator('main', { hasText: 'Signed in as Olu Owner (owner@example.com), role: Owner.' }).waitFor()
    await expectAccessible(owner)

    await owner.getByRole('link', { name: 'Staff accounts' }).click()
    await owner.getByRole('heading', { name: 'Staff accounts', level: 1 }).waitFor()
    await expectAccessible(owner)
    await owner.getByLabel('Name').fill(COLLEAGUE.name)
    await owner.getByLabel('E-mail address').fill(COLLEAGUE.email)
    await owner.getByLabel('Role', { exact: true }).selectOption('staff')
    await owner.getByRole('button', { name: 'Send invitation' }).click()
    expect(await owner.getByRole('status').innerText()).toContain(`An invitation is on its way to ${COLLEAGUE.email}`)
    await owner.getByRole('cell', { name: COLLEAGUE.email }).waitFor()

    const invitation = await sink().waitFor((mail) => mail.recipients.includes(COLLEAGUE.email), 15_000)
    const link = /https?:\/\/\S+\/admin\/set-password\?token=[\w%-]+/.exec(invitation.parsed.text ?? '')?.[0]
    expect(link, invitation.parsed.text).toBeDefined()
    expect(new URL(link ?? '').origin).toBe(site().baseUrl)

    const colleague = await openPage(browser(), 'phone')
    await colleague.goto(link ?? '')
    await waitForHydration(colleague)
    await expectAccessible(colleague)
    await colleague.getByLabel('New password').fill(COLLEAGUE.password)
    await colleague.getByLabel('The same password again').fill(COLLEAGUE.password)
    await colleague.getByRole('button', { name: 'Set password' }).click()
    await colleague.waitForURL((address) => address.pathname === '/admin/sign-in')
    expect(await colleague.getByRole('status').innerText()).toContain('Your password is set')
    await signIn(colleague, COLLEAGUE)
    await colleague.waitForURL((address) => address.pathname === '/admin')
    await colleague.locator('main', { hasText: `Signed in as ${COLLEAGUE.name} (${COLLEAGUE.email}), role: Staff.` }).waitFor()
    expect(await colleague.getByRole('link', { name: 'Audit log' }).count()).toBe(0)
    await colleague.getByRole('link', { name: /Two-factor sign-in/ }).waitFor()
    const refused = await colleague.goto(url('/admin/audit'))
    expect(refused?.status()).toBe(403)
    expect(await colleague.getByRole('heading', { level: 1 }).innerText()).toBe('Not allowed')
    await expectAccessible(colleague)

    // The colleague leaves: the owner deactivates the account, and the colleague's open session is refused at once.
    await owner.goto(url('/admin/staff'))
    await waitForHydration(owner)
    await owner
      .getByRole('article', { name: `${COLLEAGUE.name} (${COLLEAGUE.email})` })
      .getByRole('button', { name: 'Deactivate' })
      .click()
    expect(await owner.getByRole('status').innerText()).toContain(`${COLLEAGUE.name} is deactivated`)
    await owner.getByRole('row').filter({ hasText: COLLEAGUE.email }).filter({ hasText: 'Deactivated' }).waitFor()
    await expectAccessible(owner)
    await colleague.goto(url('/admin/registrations'))
    expect(new URL(colleague.url()).pathname).toBe('/admin/sign-in')
    await signIn(colleague, COLLEAGUE)
    expect(await colleague.getByRole('alert').innerText()).toBe('The e-mail address or password is wrong.')

    await owner.goto(url('/admin/audit'))
    await waitForHydration(owner)
    const log = await owner.getByRole('table').innerText()
    expect(log).toMatch(new RegExp(`${COLLEAGUE.email}\\s+Sign in\\s`))
    expect(log).toMatch(/owner@example\.com\s+Sign in\s/)
    expect(log).toMatch(/owner@example\.com\s+Staff invited/)
    expect(log).toMatch(/owner@example\.com\s+Staff deactivated/)
    expect(log).toMatch(/nobody signed in\s+Sign in failed/)
    // Newest first: the colleague's sign-in comes before the owner's invitation.
    expect(log.indexOf(`${COLLEAGUE.email}\tSign in\t`)).toBeLessThan(log.indexOf('Staff invited'))
    await expectAccessible(owner)

    // Their own account: the sessions they have open, and new backup codes with their password.
    await owner.goto(url('/admin/account'))
    await waitForHydration(owner)
    expect(await owner.getByRole('table', { name: 'Your sessions, newest first' }).innerText()).toContain('(this one)')
    await owner.getByLabel('Your password', { exact: true }).fill(OWNER.password)
    await owner.getByRole('button', { name: 'Make new backup codes' }).click()
    await owner.getByRole('heading', { name: 'Your new backup codes' }).waitFor()
    expect(await owner.locator('ul.admin-secret li').count()).toBe(10)
    await expectAccessible(owner)
    expect(ownerErrors).toEqual([])
    await owner.context().close()
    await colleague.context().close()
    // A long walk through the back office in two browsers: it takes 40 s and more on a busy machine.
  }, 120_000)

  it('without JavaScript: turns on two-factor; a code signs in once, a backup code once, then signs out everywhere', async () => {
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.goto(url('/admin'))
    await signIn(page, CAREFUL)
    await page.waitForURL((address) => address.pathname === '/admin')
    await page.locator('main', { hasText: 'Signed in as Lindiwe Staff' }).waitFor()

    await page.getByRole('link', { name: /Two-factor sign-in/ }).click()
    await page.getByLabel('Your password').fill(CAREFUL.password)
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
    const secret = await page.locator('dd.admin-secret').nth(1).innerText()
    expect(await page.locator('dd.admin-secret').first().innerText()).toMatch(/^otpauth:\/\/totp\//)
    const qrCode = page.getByRole('img', { name: 'QR code of the setup address' })
    expect(await qrCode.locator('svg path').count()).toBeGreaterThan(0)
    expect((await qrCode.boundingBox())?.width).toBeGreaterThan(100)
    const backupCodes = await page.locator('ul.admin-secret li').allInnerTexts()
    expect(backupCodes.length).toBeGreaterThan(0)
    const otp = createOTP(base32.decode(secret))
    const setupStep = Math.floor(Date.now() / 30_000)
    const setupCode = await otp.hotp(setupStep)
    await page.getByLabel('Code from your authenticator app').fill(setupCode)
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
    expect(await page.getByRole('status').innerText()).toBe('Two-factor sign-in is now on.')

    const signOut = async () => {
      await page.goto(url('/admin'))
      await page.getByRole('button', { name: 'Sign out', exact: true }).click()
      await page.waitForURL((address) => address.pathname === '/admin/sign-in')
    }
    const signInWithCode = async (code: string) => {
      await signIn(page, CAREFUL)
      await page.getByLabel('Code from your authenticator app').fill(code)
      await page.getByRole('button', { name: 'Continue' }).click()
    }
    await signOut()
    expect((await page.goto(url('/admin')))?.url()).toContain('/admin/sign-in')

    // The code that turned two-factor on has been used: it does not sign in, though it is still in its window.
    await signInWithCode(setupCode)
    expect(await page.getByRole('alert').innerText()).toBe(
      'That code was used already, so this sign-in has ended. Sign in again with your password, then wait for the next code your app shows, or use a backup code.',
    )
    await page.goto(url('/admin/sign-in'))
    await signInWithCode(await otp.hotp(setupStep + 1))
    await page.waitForURL((address) => address.pathname === '/admin')

    // A backup code at the same step of the form signs in once.
    await signOut()
    await signInWithCode(backupCodes[0] ?? '')
    await page.waitForURL((address) => address.pathname === '/admin')
    await page.locator('main', { hasText: 'Signed in as Lindiwe Staff' }).waitFor()
    await signOut()
    await signInWithCode(backupCodes[0] ?? '')
    expect(await page.getByRole('alert').innerText()).toBe(
      'The code is wrong, so this sign-in has ended. Sign in again with your password, then type the six digits your app shows now, or one of your backup codes.',
    )
    // The sign-in starts again with the password, on the same page.
    await page.getByLabel('Password').waitFor()
    await signInWithCode(backupCodes[1] ?? '')
    await page.waitForURL((address) => address.pathname === '/admin')

    await page.getByRole('button', { name: 'Sign out on every device' }).click()
    await page.waitForURL((address) => address.pathname === '/admin/sign-in')
    expect((await page.goto(url('/admin/staff')))?.url()).toContain('/admin/sign-in?redirectTo=%2Fadmin%2Fstaff')
    await page.context().close()
  })

  it('without JavaScript: a forgotten password is replaced through the e-mailed link', async () => {
    const page = await openPage(browser(), 'desktop', { javaScriptEnabled: false })
    await page.goto(url('/admin/sign-in'))
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.getByLabel('E-mail address of your account').fill(FORGETFUL.email)
    await page.getByRole('button', { name: 'Send me a link' }).click()
    expect(await page.getByRole('status').innerText()).toContain('If that address has a back-office account')

    const reset = await sink().waitFor((mail) => mail.recipients.includes(FORGETFUL.email) && mail.parsed.subject?.startsWith('Reset') === true, 15_000)
    const link = /https?:\/\/\S+\/admin\/set-password\?token=[\w%-]+/.exec(reset.parsed.text ?? '')?.[0] ?? ''
    expect(link, reset.parsed.text).not.toBe('')
    await page.goto(link)
    await page.getByLabel('New password').fill('he remembers this phrase')
    await page.getByLabel('The same password again').fill('he remembers this phrase!')
    await page.getByRole('button', { name: 'Set password' }).click()
    expect(await page.getByRole('alert').innerText()).toBe('The two passwords differ. Type the same password twice.')
    await page.getByLabel('New password').fill('he remembers this phrase')
    await page.getByLabel('The same password again').fill('he remembers this phrase')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.waitForURL((address) => address.pathname === '/admin/sign-in')

    await signIn(page, FORGETFUL)
    expect(await page.getByRole('alert').innerText()).toBe('The e-mail address or password is wrong.')
    await signIn(page, { email: FORGETFUL.email, password: 'he remembers this phrase' })
    await page.waitForURL((address) => address.pathname === '/admin')
    await page.locator('main', { hasText: 'Signed in as Thabo Staff' }).waitFor()
    await page.context().close()
  })
})
