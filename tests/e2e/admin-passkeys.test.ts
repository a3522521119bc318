// Passkeys in Chromium against the real site, with Chromium's virtual authenticator (WebAuthn over the DevTools
// protocol) standing in for a laptop's or phone's: a member adds one, signs out, signs in with it alone and removes
// it; a manager signs in with one instead of their code; a deactivated member's passkey is refused. WebAuthn refuses
// an IP address as the relying party, so this site's address (SITE_URL) is http://localhost:port.
import { Readable, Writable } from 'node:stream'
import type { CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSiteLinks } from '../../apps/site/app/lib/site-links.ts'
import { runAdminCommand } from '../../packages/staff/src/cli.ts'
import { signInAt, type StaffAccount, useBackOfficeData } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { freePort, startSite, type RunningSite } from '../support/site-server.ts'

const MEMBER: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a desk near the window 42' }
const MANAGER: StaffAccount = { email: 'mpho@example.com', name: 'Mpho Manager', role: 'manager', password: 'the blue kettle boils twice' }
const LEAVER: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Staff', role: 'staff', password: 'seven quiet paper lanterns' }

const PASSKEY_FAILED = 'That passkey did not sign you in. Try again, or sign in with your password and code.'

const browser = useBrowser()
const backOffice = useBackOfficeData([MEMBER, MANAGER, LEAVER])
let site: RunningSite | undefined
let base = ''

beforeAll(async () => {
  const port = await freePort()
  base = `http://localhost:${port}`
  site = await startSite({ port, env: { ...backOffice.siteEnv(), SITE_URL: base } })
})
afterAll(async () => {
  await site?.stop()
})

/** A platform authenticator with user verification, as a laptop's fingerprint reader: it says yes to every ceremony. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  })
  return { cdp, authenticatorId }
}

async function addPasskey(page: Page, account: StaffAccount, name: string): Promise<void> {
  await signInAt(page, base, '/admin/account', account)
  await waitForHydration(page)
  expect(await page.getByRole('region', { name: 'Passkeys' }).innerText()).toContain('You have no passkeys yet.')
  await page.getByLabel('Name of the new passkey').fill(name)
  await page.getByLabel('Your current password').fill(account.password)
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByRole('status').filter({ hasText: 'Your passkey is added' }).waitFor()
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${base}/admin`)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await page.waitForURL((address) => address.pathname === '/admin/sign-in')
}

async function usePasskey(page: Page): Promise<void> {
  await page.goto(`${base}/admin/sign-in`)
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Use a passkey' }).click()
}

describe('passkeys in a browser', () => {
  it('a member adds a passkey, signs out, signs in with it alone, sees it used and removes it', async () => {
    const page = await openPage(browser(), 'phone')
    const { cdp, authenticatorId } = await virtualAuthenticator(page)
    await addPasskey(page, MEMBER, 'Work laptop')
    const table = page.getByRole('table', { name: 'Your passkeys, newest first' })
    expect(await table.innerText()).toMatch(/Work laptop\s+\S.*\s+not yet/)
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.rpId).toBe('localhost')
    expect(await accessibilityViolations(page), 'axe on the account page with a passkey, on a phone').toEqual([])
    await page.setViewportSize({ width: 375, height: 812 })
    // At 375 px the page does not scroll sideways: the passkeys table scrolls within its own box if it must.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await signOut(page)
    await page.goto(`${base}/admin/sign-in`)
    await waitForHydration(page)
    expect(await accessibilityViolations(page), 'axe on the sign-in page').toEqual([])
    await usePasskey(page)
    // No password and no code: the passkey alone signs in.
    await page.waitForURL((address) => address.pathname === '/admin')
    await page.locator('main', { hasText: `Signed in as ${MEMBER.name}` }).waitFor()

    await page.goto(`${base}/admin/account`)
    await waitForHydration(page)
    expect(await table.innerText()).not.toContain('not yet')
    await page.getByRole('button', { name: 'Remove the passkey Work laptop' }).click()
    await page.getByRole('status').filter({ hasText: 'That passkey is removed: it no longer signs you in.' }).waitFor()
    await page.getByText('You have no passkeys yet.').waitFor()

    // The authenticator still holds the credential, but the site no longer knows it.
    await signOut(page)
    await usePasskey(page)
    expect(await page.getByRole('alert').innerText()).toBe(PASSKEY_FAILED)
    expect(new URL(page.url()).pathname).toBe('/admin/sign-in')
    await page.context().close()
  }, 90_000)

  it('a manager, who must use two-factor, signs in with a passkey in place of the code from the app', async () => {
    const page = await openPage(browser(), 'desktop')
    await virtualAuthenticator(page)
    // The manager's own sign-in to add it takes the password and a code.
    await addPasskey(page, MANAGER, 'Office PC')
    await signOut(page)
    await usePasskey(page)
    await page.waitForURL((address) => address.pathname === '/admin')
    await page.locator('main', { hasText: `Signed in as ${MANAGER.name}` }).waitFor()
    expect(await page.getByLabel('Code from your authenticator app').count()).toBe(0)
    await page.context().close()
  }, 90_000)

  it("refuses a deactivated member's passkey at once", async () => {
    const page = await openPage(browser(), 'desktop')
    await virtualAuthenticator(page)
    await addPasskey(page, LEAVER, 'Laptop')
    let output = ''
    const collect = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString()
        done()
      },
    })
    const code = await runAdminCommand(
      ['deactivate-user', '--email', LEAVER.email],
      { stdin: Readable.from([]) as NodeJS.ReadStream, stdout: collect, stderr: collect, env: { ...process.env, ...backOffice.siteEnv() } },
      createSiteLinks,
    )
    expect(code, output).toBe(0)
    // Deactivation ended the open session; the passkey no longer signs in.
    await page.goto(`${base}/admin/account`)
    await page.waitForURL((address) => address.pathname === '/admin/sign-in')
    await usePasskey(page)
    expect(await page.getByRole('alert').innerText()).toBe(PASSKEY_FAILED)
    expect(new URL(page.url()).pathname).toBe('/admin/sign-in')
    await page.context().close()
  }, 90_000)

  it('without JavaScript: says passkeys need it, refuses the button in words, and the password still signs in', async () => {
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.goto(`${base}/admin/sign-in`)
    await page.getByText('Passkeys need JavaScript. Without it, sign in with your password and code.').waitFor()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    expect(await page.getByRole('alert').innerText()).toBe(
      'Passkeys need JavaScript and a browser that supports them. Sign in with your password and code instead, or try another browser.',
    )
    await signInAt(page, base, '/admin', MEMBER)
    await page.locator('main', { hasText: `Signed in as ${MEMBER.name}` }).waitFor()
    await page.context().close()
  }, 60_000)
})
