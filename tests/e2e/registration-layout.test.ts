// The registration form's order summary and compact delegate rows: beside the form and sticky from 1024 px, the
// total shown from the start (before a payment method, and after a no-JavaScript round trip) and following every
// change; one row per delegate on wide screens, removed with a named icon button.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { accessibilityViolations } from '../support/axe.ts'
import { gotoHydrated, openPage, siteUrl, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

const registerPath = '/conference/Resilience?tab=register'
const form = () => page.locator('form.registration-form')
const summary = () => form().getByRole('complementary', { name: 'Order summary' })
const line = (term: string) => summary().locator('dt').getByText(term, { exact: true }).locator('xpath=following-sibling::dd')
const delegateRows = () => form().locator('fieldset.form__delegate')

async function openWide(): Promise<void> {
  page = await openPage(browser(), 'desktop')
  await gotoHydrated(page, registerPath)
  await summary().waitFor()
}

describe('the order summary', () => {
  it('sits beside the fields from 1024 px and stays in view while the visitor scrolls down the form', async () => {
    await openWide()
    const [aside, fields] = await Promise.all([summary().boundingBox(), form().locator('.registration-form__fields').boundingBox()])
    expect(aside!.x).toBeGreaterThanOrEqual(fields!.x + fields!.width)
    expect(Math.abs(aside!.y - fields!.y)).toBeLessThan(2)
    await form().getByRole('radio', { name: 'Card / EFT / GPay' }).scrollIntoViewIfNeeded()
    const scrolled = await summary().evaluate((element) => element.getBoundingClientRect())
    expect(scrolled.top).toBeGreaterThanOrEqual(64)
    expect(scrolled.bottom).toBeLessThanOrEqual(800)
  })

  it('shows the total before a payment method is chosen and follows the option and the delegates', async () => {
    await openWide()
    expect(await line('Total').innerText()).toBe('R 0.00')
    await form()
      .getByRole('radio', { name: /^Venue/ })
      .check()
    expect(await line('Option').innerText()).toBe('Venue')
    expect(await line('Total').innerText()).toBe('R 9 763.50')
    await form().getByRole('button', { name: 'Add delegate' }).click()
    expect(await line('Delegates').innerText()).toBe('2 × R 8 490.00')
    expect(await line('Subtotal excl. VAT').innerText()).toBe('R 16 980.00')
    expect(await line('VAT 15%').innerText()).toBe('R 2 547.00')
    expect(await line('Total').innerText()).toBe('R 19 527.00')
    await form()
      .getByRole('radio', { name: /^Table of 5 delegates/ })
      .check()
    expect(await line('Table').innerText()).toBe('2 delegates, R 34 950.00 flat')
    expect(await line('Total').innerText()).toBe('R 40 192.50')
    expect(await form().getByRole('radio', { name: 'Bank Transfer' }).isChecked()).toBe(false)
    expect(await accessibilityViolations(page)).toEqual([])
  })

  it('shows the total after the no-JavaScript Update total, with no payment method chosen', async () => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.goto(siteUrl(registerPath))
    expect(await line('Total').innerText()).toBe('R 0.00')
    await form()
      .getByRole('radio', { name: /^Online/ })
      .check()
    await Promise.all([page.waitForNavigation(), form().getByRole('button', { name: 'Update total' }).click()])
    expect(await line('Option').innerText()).toBe('Online')
    expect(await line('Total').innerText()).toBe('R 6 313.50')
  })
})

describe('delegate rows', () => {
  it('put name, position and e-mail on one row on wide screens, with an icon button named for screen readers', async () => {
    await openWide()
    const row = delegateRows().first()
    const tops = await row
      .locator('input:not([name$="professionalRegistrationNumber"])')
      .evaluateAll((inputs) => inputs.map((input) => Math.round(input.getBoundingClientRect().top)))
    expect(tops).toHaveLength(3)
    expect(new Set(tops).size).toBe(1)
    // The event is accredited for CPD: the optional professional registration number goes on a row of its own below.
    const numberTop = await row.locator('input[name$="professionalRegistrationNumber"]').evaluate((input) => Math.round(input.getBoundingClientRect().top))
    expect(numberTop).toBeGreaterThan(tops[0]!)
    expect((await row.boundingBox())!.height).toBeLessThan(210)
    const remove = row.getByRole('button', { name: 'Remove delegate 1' })
    expect(await remove.isVisible()).toBe(true)
    expect(await remove.innerText()).toBe('Remove delegate 1')
    expect(await remove.locator('svg').getAttribute('aria-hidden')).toBe('true')
    const box = (await remove.boundingBox())!
    expect(box.width).toBeGreaterThanOrEqual(44)
    expect(box.height).toBeGreaterThanOrEqual(44)
  })

  it('stack on a phone, one field under another', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, registerPath)
    const tops = await delegateRows()
      .first()
      .locator('input')
      .evaluateAll((inputs) => inputs.map((input) => input.getBoundingClientRect().top))
    expect(tops[1]).toBeGreaterThan(tops[0]!)
    expect(tops[2]).toBeGreaterThan(tops[1]!)
  })
})
