import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser.ts'
import { startStudioDevServer, type RunningStudio } from '../support/studio-server.ts'
import type { Browser } from 'playwright-core'

let studio: RunningStudio
let browser: Browser

beforeAll(async () => {
  ;[studio, browser] = await Promise.all([startStudioDevServer({ SANITY_STUDIO_PROJECT_ID: '' }), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await studio?.stop()
})

describe('the studio run on its own without a Sanity project (`pnpm dev:studio` on a fresh clone)', () => {
  it('shows how to connect one instead of Sanity’s request errors', async () => {
    const page = await browser.newPage()
    const sanityApiCalls: string[] = []
    // No network here, and none on a developer's machine is needed: calls to Sanity's API fail at once.
    await page.route(/^https:\/\/([a-z0-9-]+\.)?(api\.sanity\.io|sanity-cdn\.com|sanity\.io)\//, (route) => {
      sanityApiCalls.push(route.request().url())
      return route.abort('internetdisconnected')
    })
    await page.goto(studio.url)

    const heading = page.getByRole('heading', { level: 1 })
    // The dev server bundles the studio on the first visit.
    await heading.waitFor({ timeout: 90_000 })
    expect(await heading.textContent()).toBe('Connect a Sanity project to edit content')
    const text = await page.locator('body').innerText()
    expect(text).toContain('SANITY_STUDIO_PROJECT_ID=<your project id>')
    expect(text).toContain('The site runs offline on the dataset shipped in packages/content/dataset')
    expect(text).toContain('start the studio with pnpm dev at the repository root instead')
    expect(await page.getByRole('link', { name: 'sanity.io/manage' }).getAttribute('href')).toBe('https://www.sanity.io/manage')

    // The studio stays on this page while its background requests fail: no error screen, no sign-in, no desk.
    await page.waitForTimeout(2_000)
    const after = await page.locator('body').innerText()
    expect(after).toContain('Connect a Sanity project to edit content')
    for (const sanityScreen of ['Request error', 'CORS', 'Choose login provider', 'Log in', 'Something went wrong', 'Events']) {
      expect(after).not.toContain(sanityScreen)
    }
    expect(sanityApiCalls.some((url) => url.includes('/users/me?'))).toBe(false)
    await page.close()
  })
})
