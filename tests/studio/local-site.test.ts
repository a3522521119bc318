// The studio as `pnpm dev` runs it without a Sanity project: the local stand-in of Sanity's API over a working copy of
// the dataset file, the built site reading that file. What an editor publishes shows on the public page seconds
// later; a draft shows only in the Presentation tool's preview, never on the published site.
import { readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chromiumFlags, chromiumPath } from '../support/chromium.ts'
import { useStudioHarness } from './support/harness.ts'

const harness = useStudioHarness(undefined, { withSite: true })

async function publicPage(pathname: string): Promise<string> {
  const response = await fetch(new URL(pathname, harness.site().baseUrl))
  expect(response.status).toBe(200)
  return response.text()
}

function titleInFile(id: string): unknown {
  const documents = readFileSync(harness.site().datasetPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { _id: string; title?: unknown })
  return documents.find((document) => document._id === id)?.title
}

describe('the studio without a Sanity project, beside the site', () => {
  it('says it edits local content, in a navbar that fits a wide screen and a phone', async () => {
    const page = await harness.open('structure/events')
    await page.getByText('Local content', { exact: true }).waitFor()
    expect(await page.getByTitle(/No Sanity project: what you publish is written to .*production\.ndjson/).count()).toBe(1)
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 800 })
      const navbar = page.getByTestId('studio-navbar')
      await navbar.waitFor()
      // Nothing of the navbar is cut off or pushes the page sideways: every item lies within the window.
      const overflow = await navbar.evaluate((bar) => {
        const right = window.innerWidth
        const outside = [...bar.querySelectorAll('a, button, [data-ui="Badge"]')]
          .filter((item) => item.getBoundingClientRect().width > 0 && item.getBoundingClientRect().right > right + 0.5)
          .map((item) => item.textContent || item.getAttribute('aria-label'))
        return { outside, pageWidth: document.documentElement.scrollWidth, barWidth: bar.scrollWidth, right }
      })
      expect({ width, ...overflow }).toEqual({ width, outside: [], pageWidth: width, barWidth: overflow.barWidth, right: width })
      expect(overflow.barWidth).toBeLessThanOrEqual(width)
      await page.getByRole('link', { name: 'Back office' }).waitFor()
    }
    await page.context().close()
  })

  it('previews a draft title in the Presentation tool, and the published site keeps the published title', async () => {
    const draftTitle = 'PFAS Conference 2025: a draft only the preview shows'
    const page = await harness.open(`presentation/event;event-pfas?${new URLSearchParams({ preview: '/conference/pfas' })}`)
    const preview = page.frameLocator('iframe[title="Preview"], iframe').first()
    await preview.getByRole('heading', { name: 'PFAS Conference 2025', exact: true }).waitFor({ timeout: 60_000 })
    await preview.getByText('Preview: unpublished changes are shown.').waitFor()
    // The overlays' switch is enabled once the page in the frame has connected to the studio: from then on the
    // studio tells the page to reload its content when the draft changes.
    await expect.poll(() => page.locator('[data-ui="Switch"] input').first().isEnabled(), { timeout: 30_000 }).toBe(true)
    const title = page.getByTestId('field-title').locator('input')
    // Typed as an editor types: the studio saves the draft as it goes, and the preview follows each save.
    await title.fill('PFAS Conference 2025: a draft')
    await title.pressSequentially(draftTitle.slice('PFAS Conference 2025: a draft'.length), { delay: 40 })
    await expect.poll(() => titleInFile('drafts.event-pfas'), { timeout: 30_000 }).toBe(draftTitle)
    const typedAt = Date.now()
    await preview.getByRole('heading', { name: draftTitle }).waitFor({ timeout: 30_000 })
    console.log(`The draft title showed in the preview ${((Date.now() - typedAt) / 1000).toFixed(1)} s after it was saved`)
    expect(titleInFile('drafts.event-pfas')).toBe(draftTitle)
    const published = await publicPage('/conference/pfas')
    expect(published).toContain('PFAS Conference 2025')
    expect(published).not.toContain(draftTitle)
    await page.context().close()
  })

  it("shows an event's new title on its public page seconds after Publish", async () => {
    const newTitle = 'Economic Resilience Conference 2025: Growth Through Shocks'
    expect(await publicPage('/conference/Resilience')).not.toContain(newTitle)
    const page = await harness.open('structure/events;event-resilience;event')
    await page.getByTestId('action-publish').waitFor()
    await page.getByTestId('field-title').locator('input').fill(newTitle)
    await expect.poll(() => titleInFile('drafts.event-resilience'), { timeout: 30_000 }).toBe(newTitle)
    expect(await publicPage('/conference/Resilience')).not.toContain(newTitle)
    await expect.poll(() => page.getByTestId('action-publish').isDisabled(), { timeout: 30_000 }).toBe(false)
    await page.getByTestId('action-publish').click()
    const publishedAt = Date.now()
    await expect.poll(async () => (await publicPage('/conference/Resilience')).includes(newTitle), { timeout: 10_000, interval: 200 }).toBe(true)
    console.log(`The published title showed on the site ${((Date.now() - publishedAt) / 1000).toFixed(1)} s after Publish`)
    expect(titleInFile('event-resilience')).toBe(newTitle)
    expect(titleInFile('drafts.event-resilience')).toBeUndefined()
    await page.context().close()
  })

  it('tells a browser that does not trust the stand-in yet how to, and opens once it does', async () => {
    // A browser as a developer's is: the stand-in's certificate, made on this computer, is not trusted.
    const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumFlags, '--host-resolver-rules=MAP *.localhost 127.0.0.1'] })
    try {
      const page = await browser.newPage()
      await page.goto(new URL('structure/events', harness.studioUrl()).href, { timeout: 120_000 })
      await page.getByRole('heading', { name: 'Let this browser trust the local content API' }).waitFor({ timeout: 60_000 })
      await page
        .getByRole('link', { name: /^https:\/\/local\.localhost:\d+\/$/ })
        .first()
        .click()
      // Chromium's warning page: "Advanced", then "Proceed to local.localhost (unsafe)".
      await page.locator('#details-button').click()
      await page.locator('#proceed-link').click()
      await page.getByText('this browser trusts it now').waitFor()
      // Back in the studio, which now reaches the stand-in.
      await page.goBack()
      await page.getByText('Local content', { exact: true }).waitFor({ timeout: 60_000 })
    } finally {
      await browser.close()
    }
  })

  it('needed nothing the stand-in does not answer, but presence’s WebSocket', () => {
    expect(harness.lake().unanswered.filter((request) => !request.includes('/socket/'))).toEqual([])
  })
})
