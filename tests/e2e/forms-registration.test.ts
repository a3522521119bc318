// The Register tab's form, with JavaScript (instant updates, background submit) and without it (every change a
// round trip to the page's action): delegates, caps, the total, payment details, errors and the status page.
// axe runs in the JavaScript states only: it needs scripts, and both modes render the same markup.
import type { Page, Route } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { accessibilityViolations } from '../support/axe.ts'
import { gotoHydrated, openPage, siteUrl, useBrowser, waitForHydration } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

const registerPath = '/conference/Resilience?tab=register'
const form = () => page.locator('form.registration-form')
const delegateRows = () => form().locator('fieldset.form__delegate')
const option = (label: RegExp) => form().getByRole('radio', { name: label })
const addDelegate = () => form().getByRole('button', { name: 'Add delegate' })
const capMessage = 'You can only add up to 5 delegates for this option.'

async function fillDetails(): Promise<void> {
  await form().getByLabel('Company name').fill('Acme Holdings')
  await form().getByLabel('Address').fill('1 Main Road, Sandton')
  await form().getByLabel('E-mail', { exact: true }).first().fill('bookings@acme.test')
  await form().getByLabel('Telephone').fill('+27 11 555 0100')
  await form().getByLabel('VAT number').fill('4123456789')
}

async function fillDelegate(row: number, name: string): Promise<void> {
  const delegate = delegateRows().nth(row)
  await delegate.getByLabel('Name').fill(name)
  await delegate.getByLabel('Position').fill('Director')
  await delegate.getByLabel('E-mail').fill(`${name.toLowerCase().replace(/\W+/g, '.')}@acme.test`)
}

/** axe on the page once its finite animations (toasts fading in) have ended, so colours are read at rest. */
async function violationsAtRest(): Promise<string[]> {
  await page.waitForFunction(() =>
    // Endless animations, and those that follow scrolling (the tab bar's overflow cue), never come to rest.
    document
      .getAnimations()
      .every(
        (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity || animation.timeline !== document.timeline,
      ),
  )
  return accessibilityViolations(page)
}

async function expectNoViolations(): Promise<void> {
  expect(await violationsAtRest()).toEqual([])
}

describe('with JavaScript', () => {
  it('keeps what the visitor entered before the scripts arrived, and prices it', async () => {
    page = await openPage(browser(), 'desktop')
    const scriptErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') scriptErrors.push(message.text())
    })
    // The scripts are held back, as on a slow phone connection, while the visitor fills in the server's form.
    const heldScripts: Route[] = []
    let holding = true
    await page.route('**/assets/*.js', (route) => (holding ? void heldScripts.push(route) : route.fallback()))
    await page.goto(siteUrl(registerPath), { waitUntil: 'domcontentloaded' })
    await option(/Table of 5/).check()
    await fillDetails()
    await fillDelegate(0, 'Thandi Mokoena')
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()

    holding = false
    for (const route of heldScripts) void route.fallback()
    await waitForHydration(page)

    expect(await option(/Table of 5/).isChecked()).toBe(true)
    expect(await form().getByLabel('Company name').inputValue()).toBe('Acme Holdings')
    expect(await delegateRows().nth(0).getByLabel('Name').inputValue()).toBe('Thandi Mokoena')
    expect(await form().getByRole('radio', { name: 'Bank Transfer' }).isChecked()).toBe(true)
    expect(await form().locator('.registration-form__total').innerText()).toContain('R 40 192.50')
    expect(scriptErrors).toEqual([])
  })

  it('adds and removes delegates, enforces the table cap, cuts the list for a table, and recomputes the total', async () => {
    page = await openPage(browser(), 'desktop')
    await gotoHydrated(page, registerPath)
    expect(await delegateRows().count()).toBe(1)
    expect(
      await form()
        .getByLabel(/Conference code/)
        .inputValue(),
    ).toBe('ERC2025')

    await addDelegate().click()
    expect(await delegateRows().count()).toBe(2)
    await delegateRows().nth(1).getByRole('button', { name: 'Remove delegate 2' }).click()
    await delegateRows().nth(0).getByRole('button', { name: 'Remove delegate 1' }).click()
    expect(await delegateRows().count()).toBe(0)

    await option(/^Table of 5 delegates/).check()
    for (let row = 0; row < 5; row++) await addDelegate().click()
    expect(await delegateRows().count()).toBe(5)
    await addDelegate().click()
    expect(await delegateRows().count()).toBe(5)
    expect(await form().getByRole('alert').filter({ hasText: capMessage }).isVisible()).toBe(true)

    await option(/^Venue/).check()
    await addDelegate().click()
    await addDelegate().click()
    expect(await delegateRows().count()).toBe(7)
    await option(/^Table of 5 delegates/).check()
    expect(await delegateRows().count()).toBe(5)
    expect(await form().getByRole('alert').innerText()).toContain('The list was cut to the first 5.')

    const total = form().locator('.registration-form__total')
    expect(await total.count()).toBe(0)
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    expect(await total.innerText()).toBe('R 40 192.50 incl. 15% VAT')
    expect(await form().getByText('Branch code').isVisible()).toBe(true)
    expect(await form().getByRole('button', { name: 'Update total' }).isVisible()).toBe(false)

    await option(/^Online/).check()
    expect(await total.innerText()).toBe('R 31 567.50 incl. 15% VAT')
    await form().getByRole('radio', { name: 'Card / EFT / GPay' }).check()
    expect(await form().getByText('the form is submitted first').isVisible()).toBe(true)
    expect(await form().getByRole('button', { name: 'Pay R 31 567.50' }).isVisible()).toBe(true)
    expect(await form().getByText('Branch code').count()).toBe(0)
    await expectNoViolations()
  })

  it('shows the errors of a submit in a summary and at the fields, then registers and opens the status page', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, registerPath)
    await form().getByRole('button', { name: 'Submit Form' }).click()
    const summary = form().locator('.form__summary[role="alert"]')
    await summary.waitFor()
    expect(await summary.locator('.form__summary-title').innerText()).toBe('Please fill in all required fields before submitting.')
    expect(await form().getByLabel('Company name').getAttribute('aria-invalid')).toBe('true')
    expect(await form().locator('#register-companyName-error').innerText()).toBe('Company name is required')
    expect(new URL(page.url()).pathname).toBe('/conference/Resilience')
    await expectNoViolations()

    await option(/^Venue/).check()
    await fillDetails()
    await fillDelegate(0, 'Thandi Mokoena')
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    await form()
      .getByRole('checkbox', { name: /terms and conditions/ })
      .check()
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    const reference = /\/registrations\/([A-Z0-9]+)\//.exec(page.url())![1]!
    // The address changes as the navigation starts; the status page renders when its data has come.
    await page.getByRole('heading', { level: 1, name: 'Registration received' }).waitFor()
    expect(await page.locator('main').innerText()).toContain(reference)
    // Resilience runs over two days: the confirmation names both.
    expect(await page.locator('main').innerText()).toContain('23–24 July 2025')
    expect(await page.getByText('What happens next').isVisible()).toBe(true)
    expect(await page.locator('.bank-details').innerText()).toContain(reference)
    await expectNoViolations()
  })
})

describe('without JavaScript', () => {
  async function open(pathname: string): Promise<void> {
    page = await openPage(browser(), 'desktop', { javaScriptEnabled: false })
    await page.goto(siteUrl(pathname))
  }

  // Every button posts the form; the next step waits for the page the action rendered.
  async function post(button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForEvent('load'), button.click()])
  }

  it('adds and removes delegates, cuts the list for a table and shows the total after Update total', async () => {
    await open(registerPath)
    await post(addDelegate())
    expect(await delegateRows().count()).toBe(2)
    await fillDelegate(1, 'Second Delegate')
    await post(addDelegate())
    expect(await delegateRows().count()).toBe(3)
    expect(await delegateRows().nth(1).getByLabel('Name').inputValue()).toBe('Second Delegate')
    await post(delegateRows().nth(0).getByRole('button', { name: 'Remove delegate 1' }))
    expect(await delegateRows().count()).toBe(2)
    expect(await delegateRows().nth(0).getByLabel('Name').inputValue()).toBe('Second Delegate')

    for (let rows = 2; rows < 7; rows++) await post(addDelegate())
    expect(await delegateRows().count()).toBe(7)
    await option(/^Table of 5 delegates/).check()
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    await post(form().getByRole('button', { name: 'Update total' }))
    expect(await delegateRows().count()).toBe(5)
    expect(await form().getByRole('alert').first().innerText()).toContain('The list was cut to the first 5.')
    expect(await form().locator('.registration-form__total').innerText()).toBe('R 40 192.50 incl. 15% VAT')
    expect(await form().getByText('Branch code').isVisible()).toBe(true)

    await post(addDelegate())
    expect(await delegateRows().count()).toBe(5)
    expect(await form().getByText(capMessage).isVisible()).toBe(true)
  })

  it('lands back at the delegates after Add and Remove delegate, and at the total after Update total, on a phone', async () => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false, viewport: { width: 375, height: 812 } })
    await page.goto(siteUrl(registerPath))
    /** Where an element sits in the viewport, and the bottom of the sticky header above it. */
    const placeOf = (selector: string) =>
      page.locator(selector).evaluate((element) => ({
        top: element.getBoundingClientRect().top,
        bottom: element.getBoundingClientRect().bottom,
        headerBottom: document.querySelector('header.site-header')!.getBoundingClientRect().bottom,
        viewportHeight: window.innerHeight,
      }))
    const expectInView = async (selector: string) => {
      const place = await placeOf(selector)
      expect(place.top).toBeGreaterThanOrEqual(place.headerBottom)
      expect(place.bottom).toBeLessThanOrEqual(place.viewportHeight)
    }

    await post(addDelegate())
    expect(await delegateRows().count()).toBe(2)
    await expectInView('#register-delegates')
    await post(delegateRows().nth(1).getByRole('button', { name: 'Remove delegate 2' }))
    expect(await delegateRows().count()).toBe(1)
    await expectInView('#register-delegates')

    await option(/^Venue/).check()
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    await post(form().getByRole('button', { name: 'Update total' }))
    await expectInView('.registration-form__total')
  })

  it('shows the errors of a submit in the page, then registers and opens the status page', async () => {
    await open(registerPath)
    await post(form().getByRole('button', { name: 'Submit Form' }))
    expect(await form().locator('.form__summary-title').innerText()).toBe('Please fill in all required fields before submitting.')
    expect(await form().locator('#register-companyName-error').innerText()).toBe('Company name is required')
    expect(await form().locator('#register-legalAgreement-error').innerText()).toBe('Please accept the terms and conditions before submitting.')

    await option(/^Online/).check()
    await fillDetails()
    await fillDelegate(0, 'Pieter Botha')
    await form().getByRole('radio', { name: 'Card / EFT / GPay' }).check()
    await form()
      .getByRole('checkbox', { name: /terms and conditions/ })
      .check()
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Registration received')
    expect(await page.locator('main').innerText()).toContain('R 6 313.50')
    expect(await page.locator('main').innerText()).toContain('23–24 July 2025')
  })

  it('takes a delegate’s professional registration number for an accredited event, and changes it on the status page, on a phone', async () => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false, viewport: { width: 375, height: 812 } })
    await page.goto(siteUrl(registerPath))
    await option(/^Online/).check()
    await fillDetails()
    await fillDelegate(0, 'Naledi Khumalo')
    await delegateRows().nth(0).getByLabel('Professional registration number (optional)').fill('SAIPA 12345')
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    await form()
      .getByRole('checkbox', { name: /terms and conditions/ })
      .check()
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    await page.getByRole('heading', { level: 2, name: 'Professional registration numbers' }).waitFor()
    const number = page.getByLabel('Professional registration number of Naledi Khumalo', { exact: true })
    expect(await number.inputValue()).toBe('SAIPA 12345')

    await number.fill('SAIPA 67890')
    await post(page.getByRole('button', { name: 'Save the professional registration number of Naledi Khumalo' }))
    await page.getByText('Naledi Khumalo’s professional registration number is saved.').waitFor()
    expect(await page.getByLabel('Professional registration number of Naledi Khumalo', { exact: true }).inputValue()).toBe('SAIPA 67890')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
})
