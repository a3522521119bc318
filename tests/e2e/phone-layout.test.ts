// What a delegate sees on a 375 px phone: the event's tab bar shows that it scrolls, the delegate fields use the
// form's width, and the card payment offers one primary action, after the terms, where the visitor needs it.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, useBrowser } from '../support/browser.ts'

const browser = useBrowser()
const PHONE = { width: 375, height: 812 }

let page: Page
afterEach(async () => {
  await page?.context().close()
})

async function open(pathname: string, viewport: 'phone' | 'desktop' = 'phone'): Promise<void> {
  page = await openPage(browser(), viewport, viewport === 'phone' ? { viewport: PHONE } : {})
  await gotoHydrated(page, pathname)
}

const tabList = () => page.locator('.tabs > .tabs__list').first()
const maskOf = () => tabList().evaluate((element) => getComputedStyle(element).maskImage)

describe('the event tab bar on a phone', () => {
  it('fades its cut edge while it overflows, on the side where more tabs wait, and snaps to the tabs', async () => {
    await open('/conference/Resilience')
    const overflow = await tabList().evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
      snap: getComputedStyle(element).scrollSnapType,
    }))
    expect(overflow.scroll).toBeGreaterThan(overflow.client)
    expect(overflow.snap).toContain('x')
    const atStart = await maskOf()
    // Opaque at the left, where the row starts; fading out at the right, where more tabs wait.
    expect(atStart).toMatch(/^linear-gradient\(90deg, rgb\(0, 0, 0\) .*rgba\(0, 0, 0, 0\)\)$/)
    await tabList().evaluate((element) => element.scrollTo({ left: element.scrollWidth, behavior: 'instant' }))
    await expect.poll(maskOf).toMatch(/^linear-gradient\(90deg, rgba\(0, 0, 0, 0\), rgb\(0, 0, 0\) [^,]+\)$/)
  })

  it('shows no cue where every tab fits', async () => {
    await open('/conference/Resilience', 'desktop')
    const fits = await tabList().evaluate((element) => element.scrollWidth <= element.clientWidth)
    expect(fits).toBe(true)
    expect(await maskOf()).toBe('none')
  })
})

describe('the registration form on a phone', () => {
  const form = () => page.locator('form.registration-form')

  it('gives the delegate fields the width of the company’s fields', async () => {
    await open('/conference/Resilience?tab=register')
    const fullWidth = (await form().locator('input[name=companyName]').boundingBox())!.width
    const inputs = form().locator('fieldset.form__delegate input')
    // Name, position, e-mail and (the event is accredited for CPD) the professional registration number.
    expect(await inputs.count()).toBe(4)
    for (const input of await inputs.all()) expect((await input.boundingBox())!.width).toBeGreaterThanOrEqual(fullWidth - 40)
  })

  const filledButtons = () =>
    form()
      .locator('button[type=submit]:visible')
      .evaluateAll((buttons) =>
        buttons
          .filter((button) => {
            const background = getComputedStyle(button).backgroundColor
            return background !== 'rgba(0, 0, 0, 0)' && background !== 'rgb(255, 255, 255)'
          })
          .map((button) => button.textContent?.trim()),
      )

  it('offers paying by card as the one primary action, below the terms and the total', async () => {
    await open('/conference/Resilience?tab=register')
    await form()
      .getByRole('radio', { name: /^Venue/ })
      .check()
    await form().getByRole('radio', { name: 'Card / EFT / GPay' }).check()
    const pay = form().getByRole('button', { name: /^Pay R/ })
    expect(await filledButtons()).toEqual([expect.stringMatching(/^Pay R/)])
    const top = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!.y
    const terms = form().getByRole('checkbox', { name: /terms and conditions/ })
    const total = form().locator('.registration-form__total')
    const submit = form().getByRole('button', { name: 'Submit Form' })
    expect(await top(terms)).toBeLessThan(await top(total))
    expect(await top(total)).toBeLessThan(await top(pay))
    expect(await top(pay)).toBeLessThanOrEqual(await top(submit))
  })

  it('offers Submit Form as the one primary action when paying by bank transfer', async () => {
    await open('/conference/Resilience?tab=register')
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    expect(
      await form()
        .getByRole('button', { name: /^Pay R/ })
        .count(),
    ).toBe(0)
    expect(await filledButtons()).toEqual(['Submit Form'])
  })
})
