// Amounts read as one piece on a narrow phone: "R 34 950.00" never breaks across lines.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, siteUrl, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

const narrowPhone = { viewport: { width: 375, height: 812 } }

/** Every amount in the page's main content ("R 34 950.00") with the number of lines it is laid out on. */
function amountLines(): Promise<Array<{ amount: string; lines: number }>> {
  return page.evaluate(() => {
    const amounts: Array<{ amount: string; lines: number }> = []
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/R\s\d{1,3}(?:\s\d{3})*\.\d{2}/g)) {
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)))
        if (tops.size > 0) amounts.push({ amount: match[0], lines: tops.size })
      }
    }
    return amounts
  })
}

async function expectAmountsOnOneLine(): Promise<void> {
  const amounts = await amountLines()
  expect(amounts.length).toBeGreaterThan(0)
  expect(amounts.filter((amount) => amount.lines > 1)).toEqual([])
}

describe('amounts at 375 px', () => {
  it('stay on one line on the Register tab with a Table of 5 chosen', async () => {
    page = await openPage(browser(), 'phone', narrowPhone)
    await gotoHydrated(page, '/conference/Resilience?tab=register')
    const form = page.locator('form.registration-form')
    await form.getByRole('radio', { name: /^Table of 5 delegates/ }).check()
    await form.getByRole('radio', { name: 'Card / EFT / GPay' }).check()
    await form.locator('.registration-form__total').getByText('R 40 192.50').waitFor()
    await expectAmountsOnOneLine()
  })

  it('stay on one line on the status page of a Table of 5 registration', async () => {
    const response = await fetch(siteUrl('/api/registrations'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'Resilience',
        code: 'RES2025',
        companyName: 'Acme Holdings',
        address: '1 Main Road, Sandton',
        email: 'bookings@acme.test',
        tel: '+27 11 555 0100',
        vatNumber: '4123456789',
        delegates: [{ name: 'Thandi Mokoena', position: 'Director', email: 'thandi@acme.test' }],
        attendanceOption: 'table-5',
        paymentMethod: 'Credit/Debit Card',
        legalAgreement: true,
      }),
    })
    expect(response.status).toBe(201)
    const { statusUrl } = (await response.json()) as { statusUrl: string }
    page = await openPage(browser(), 'phone', narrowPhone)
    await gotoHydrated(page, new URL(statusUrl).pathname)
    expect(await page.locator('main').innerText()).toContain('R 40 192.50')
    await expectAmountsOnOneLine()
  })
})
