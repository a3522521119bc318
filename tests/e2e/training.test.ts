// The training pages' Request dialog: a modal that holds focus and closes by Escape or its Close button.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, useBrowser } from '../support/browser.ts'
import { trainingPages } from '../support/routes.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

const requestControl = () =>
  page
    .getByRole('link', { name: 'Request a training proposal', exact: true })
    .or(page.getByRole('button', { name: 'Request a training proposal', exact: true }))
const dialog = () => page.getByRole('dialog')
const focusIsInsideDialog = () => dialog().evaluate((element) => element.contains(document.activeElement))

describe.each(trainingPages)('%s', (pathname) => {
  it('is built as the other content pages are: what the training covers, how it runs, who it is for, then the request', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, pathname)
    const headings = await page.locator('main h2').allInnerTexts()
    expect(headings.slice(0, 3)).toEqual(['What the training covers', 'How it runs', 'Who it is for'])
    // The spec's four points stay, under what the training covers.
    expect(await page.locator('main section', { hasText: 'What the training covers' }).locator('li').count()).toBeGreaterThanOrEqual(4)
    expect(await requestControl().isVisible()).toBe(true)
  })

  it('Request opens a modal dialog that keeps focus inside and closes on Escape', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, pathname)
    await requestControl().click()
    await dialog().waitFor({ state: 'visible' })
    expect(new URL(page.url()).pathname).toBe(pathname)
    expect(await focusIsInsideDialog()).toBe(true)

    const focusableCount = await dialog().locator('a[href], button, input:not([type="hidden"]), select, textarea').count()
    for (let press = 0; press <= focusableCount; press++) {
      await page.keyboard.press('Tab')
      expect(await focusIsInsideDialog(), `focus after ${press + 1} Tab presses`).toBe(true)
    }
    await page.keyboard.press('Shift+Tab')
    expect(await focusIsInsideDialog()).toBe(true)

    await page.keyboard.press('Escape')
    await dialog().waitFor({ state: 'hidden' })
  })

  it('the Close button closes the dialog', async () => {
    page = await openPage(browser(), 'desktop')
    await gotoHydrated(page, pathname)
    await requestControl().click()
    await dialog().waitFor({ state: 'visible' })
    await dialog().getByRole('button', { name: 'Close' }).click()
    await dialog().waitFor({ state: 'hidden' })
  })
})
