// The site under its Content-Security-Policy in Chromium with JavaScript: the key pages and flows work, and the
// browser reports no violation and no console error on any of them.
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { openPage, useBrowser, waitForHydration, gotoHydrated } from '../support/browser.ts'

const browser = useBrowser()
let page: Page
let violations: string[]
let consoleErrors: string[]

afterEach(async () => {
  await page?.context().close()
})

/** Collects every CSP violation (the DOM event, on every page the context opens) and every console error. */
async function watchedPage(): Promise<Page> {
  const opened = await openPage(browser(), 'desktop')
  const context: BrowserContext = opened.context()
  violations = []
  consoleErrors = []
  await context.exposeBinding('reportViolation', (_source, text: string) => void violations.push(text))
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportViolation(text: string): void }).reportViolation
      report(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.documentURI}: ${event.sample}`)
    })
  })
  opened.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} at ${opened.url()}`)
  })
  opened.on('pageerror', (error) => consoleErrors.push(`${error.message} at ${opened.url()}`))
  return opened
}

function expectNoViolations(): void {
  expect(violations).toEqual([])
  expect(consoleErrors).toEqual([])
}

describe('the Content-Security-Policy in the browser', () => {
  it('home: the contact form posts in the background and its toasts show', async () => {
    page = await watchedPage()
    await gotoHydrated(page, '/')
    const form = page.locator('#contact form')
    await form.getByLabel('Full name').fill('Naledi Dlamini')
    await form.getByLabel('Email').fill('naledi@client.test')
    await form.getByLabel('Phone').fill('+27 82 555 0101')
    await form.getByLabel('I am interested in').selectOption('Conference')
    await form.getByLabel('Message').fill('Please send the programme.')
    await form.getByRole('button', { name: /^Submit/ }).click()
    // react-hot-toast styles itself with a <style> element it adds at run time (goober), under the page nonce.
    await page.locator('[data-rht-toaster]').getByText('Message sent!', { exact: true }).waitFor()
    expect(await page.locator('style#_goober').count()).toBe(1)
    expectNoViolations()
  })

  it('an event page: the logo strip, the Register tab, the status page with its Pay button and the sandbox checkout', async () => {
    page = await watchedPage()
    await gotoHydrated(page, '/conference/Resilience')
    // The loop length is set through the CSSOM, which the policy allows, rather than a style attribute.
    expect(await page.locator('.logo-strip').evaluate((element) => (element as HTMLElement).style.getPropertyValue('--logo-count'))).not.toBe('')
    await page.getByRole('tab', { name: 'Register' }).click()
    const form = page.locator('form.registration-form')
    await form.waitFor()
    await waitForHydration(page)
    await form.getByRole('radio', { name: /^Venue/ }).check()
    await form.getByLabel('Company name').fill('Policy Check Ltd')
    await form.getByLabel('Address').fill('1 Main Road, Sandton')
    await form.getByLabel('E-mail', { exact: true }).first().fill('bookings@policy.test')
    await form.getByLabel('Telephone').fill('+27 11 555 0100')
    await form.getByLabel('VAT number').fill('4123456789')
    const delegate = form.locator('fieldset.form__delegate').first()
    await delegate.getByLabel('Name').fill('Thandi Mokoena')
    await delegate.getByLabel('Position').fill('Director')
    await delegate.getByLabel('E-mail').fill('thandi@policy.test')
    await form.getByRole('radio', { name: 'Card / EFT / GPay' }).check()
    await form.getByRole('checkbox', { name: /terms and conditions/ }).check()
    await form.getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    await waitForHydration(page)
    await page.getByRole('button', { name: /^Pay R/ }).click()
    await page.waitForURL('**/payments/sandbox/*')
    await page.getByText('No card is charged').waitFor()
    await waitForHydration(page)
    await page.getByRole('button', { name: /^Pay R/ }).click()
    await page.waitForURL('**/payment/success')
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Payment received')
    expectNoViolations()
  })

  it('a training page: the Request dialog opens', async () => {
    page = await watchedPage()
    await gotoHydrated(page, '/inhouse-training')
    await page.getByRole('link', { name: 'Request a training proposal', exact: true }).click()
    await page.getByRole('dialog').waitFor({ state: 'visible' })
    expectNoViolations()
  })

  it('reports what the policy blocks: a style attribute, a style element and an event handler without the nonce', async () => {
    page = await watchedPage()
    await gotoHydrated(page, '/')
    await page.evaluate(() => {
      const holder = document.createElement('div')
      // What injected markup would bring: a style attribute, a <style> element and an inline event handler.
      holder.innerHTML =
        '<p style="color: red">styled</p><style>body { color: red }</style><img src="/favicon.svg" alt="" onload="document.title = \'injected\'">'
      document.body.append(holder)
    })
    const directivesViolated = () => [...new Set(violations.map((violation) => violation.split(' ')[0]))].sort()
    await expect.poll(directivesViolated).toEqual(['script-src-attr', 'style-src-attr', 'style-src-elem'])
    expect(await page.title()).not.toBe('injected')
  })
})
