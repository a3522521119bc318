// With JavaScript off the site still works: the menu is shown, tabs are links, Request leads to its own page.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { openPage, siteUrl, useBrowser, type ViewportName } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
async function open(viewport: ViewportName, pathname: string): Promise<Page> {
  page = await openPage(browser(), viewport, { javaScriptEnabled: false })
  await page.goto(siteUrl(pathname))
  return page
}
afterEach(async () => {
  await page?.context().close()
})

describe('without JavaScript', () => {
  it('the navigation links and the event links are visible at 390 px', async () => {
    await open('phone', '/terms')
    const navigation = page.getByRole('navigation', { name: 'Main' })
    for (const name of ['About Us', 'Conferences', 'Workshops', 'In-House Training', 'Online Training']) {
      expect(await navigation.getByRole('link', { name }).isVisible(), `${name} link visible`).toBe(true)
    }
  })

  it('the Request button leads to the request page with its form', async () => {
    await open('phone', '/online-training')
    await page.getByRole('link', { name: 'Request a training proposal', exact: true }).click()
    await page.waitForURL('**/online-training/request')
    const form = page.locator('main form')
    expect(await form.getByRole('textbox', { name: 'Name' }).isVisible()).toBe(true)
    expect(await form.getByRole('textbox', { name: 'Email' }).isVisible()).toBe(true)
    expect(await form.getByRole('button', { name: /Submit/ }).isVisible()).toBe(true)
  })

  it('event tabs work as links', async () => {
    await open('desktop', '/conference/Resilience')
    await page.getByRole('tab', { name: 'Agenda', exact: true }).click()
    await page.waitForURL((url) => url.searchParams.get('tab') === 'agenda')
    expect(await page.getByRole('tab', { name: 'Agenda', exact: true }).getAttribute('aria-selected')).toBe('true')
    expect(await page.getByRole('tab', { name: 'Overview', exact: true }).getAttribute('aria-selected')).toBe('false')
    expect(await page.locator('[role="tabpanel"]:visible').first().innerText()).toContain('07:30')
  })
})
