// The contact form and the training request form, with JavaScript (background post, toasts, button states) and
// without it (the page's action renders the same messages).
import type { Page, Route } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { accessibilityViolations } from '../support/axe.ts'
import { gotoHydrated, openPage, siteUrl, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

const isBackgroundPost = (route: Route) => route.request().method() === 'POST' && new URL(route.request().url()).pathname.endsWith('.data')

/** Holds background posts until the returned release() is called, so the in-flight state can be seen. */
async function holdPosts(): Promise<() => void> {
  const held: Route[] = []
  let released = false
  await page.route('**/*', async (route) => {
    if (!isBackgroundPost(route) || released) return route.fallback()
    held.push(route)
  })
  return () => {
    released = true
    for (const route of held) void route.fallback()
  }
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

const toast = (text: string) => page.locator('[data-rht-toaster]').getByText(text, { exact: true })

const requiredFields = 'Please fill in all required fields before submitting.'

/** Whether the toast with this text is shown: present and not faded out (a dismissed toast fades, then goes). */
async function toastShown(text: string): Promise<boolean> {
  await page.waitForFunction(() =>
    // Endless animations, and those that follow scrolling (the tab bar's overflow cue), never come to rest.
    document
      .getAnimations()
      .every(
        (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity || animation.timeline !== document.timeline,
      ),
  )
  const shown = toast(text)
  if ((await shown.count()) === 0) return false
  return shown.evaluate((element) => {
    for (let node: Element | null = element; node; node = node.parentElement) {
      if (getComputedStyle(node).opacity === '0') return false
    }
    return true
  })
}

/** Whether the toast with this text is what the visitor sees at its centre (not hidden under a backdrop or the header). */
function toastOnTop(text: string): Promise<boolean> {
  return toast(text).evaluate((element) => {
    const box = element.getBoundingClientRect()
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    return hit !== null && (element.contains(hit) || hit.contains(element))
  })
}

async function headerBottom(): Promise<number> {
  return page.locator('header.site-header').evaluate((header) => header.getBoundingClientRect().bottom)
}

describe('contact form with JavaScript', () => {
  const form = () => page.locator('#contact form')
  const button = () => form().getByRole('button', { name: /^Submit/ })

  async function fillContact(): Promise<void> {
    await form().getByLabel('Full name').fill('Naledi Dlamini')
    await form().getByLabel('Email').fill('naledi@client.test')
    await form().getByLabel('Phone').fill('+27 82 555 0101')
    await form().getByLabel('I am interested in').selectOption('Sponsorship')
    await form().getByLabel('Message').fill('Please send the sponsorship packages.')
  }

  it('tells a visitor who missed fields which ones, not that sending failed', async () => {
    page = await openPage(browser(), 'desktop')
    await gotoHydrated(page, '/')
    await form().getByLabel('Full name').fill('Naledi Dlamini')
    await button().click()
    await toast(requiredFields).waitFor()
    expect(await form().getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
    const summary = form().locator('.form__summary[role="alert"]')
    expect(await summary.locator('.form__summary-title').innerText()).toBe(requiredFields)
    const formText = await form().innerText()
    for (const message of ['Email is required', 'Phone is required', 'Interest is required', 'Message is required']) {
      expect(formText).toContain(message)
    }
    expect(formText).not.toContain('Failed to send message')
    expect(formText.split(requiredFields)).toHaveLength(2)
    expect(await button().innerText()).toBe('Submit')
    expect(await violationsAtRest()).toEqual([])
  })

  it.each(['desktop', 'phone'] as const)(
    'at the %s width a new submission dismisses the failure toast of the one before, and toasts stay below the header',
    async (viewport) => {
      page = await openPage(browser(), viewport)
      await gotoHydrated(page, '/')
      await button().click()
      await toast(requiredFields).waitFor()
      const failureTop = await toast(requiredFields).evaluate((element) => element.getBoundingClientRect().top)
      await fillContact()
      await button().click()
      await toast('Message sent!').waitFor()
      expect(await toastShown('Message sent!')).toBe(true)
      // The failure toast's exit may not have begun when the answer's toast appears on a loaded machine: it must be
      // gone soon after, not at that very instant.
      await expect.poll(() => toastShown(requiredFields), { timeout: 3_000 }).toBe(false)
      expect(failureTop).toBeGreaterThanOrEqual(await headerBottom())
      expect(await toast('Message sent!').evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(await headerBottom())
    },
  )

  it('sends: Submitting... and disabled, the loading toast, then Message sent!, Submitted and a reset form, Submit again after 30 s', async () => {
    page = await openPage(browser(), 'desktop')
    await page.clock.install()
    await gotoHydrated(page, '/')
    const options = await form().getByLabel('I am interested in').locator('option').allInnerTexts()
    expect(options).toContain('Sponsorship')
    expect(options).not.toContain('Sponsership')
    await fillContact()
    const release = await holdPosts()
    await button().click()
    await toast('Sending email...').waitFor()
    expect(await button().innerText()).toBe('Submitting...')
    expect(await button().isDisabled()).toBe(true)
    release()
    await toast('Message sent!').waitFor()
    expect(await button().innerText()).toBe('Submitted')
    expect(await form().getByLabel('Full name').inputValue()).toBe('')
    await page.clock.fastForward(30_000)
    // Dismissed first: gone once its exit delay has passed, while the later success toast was shown.
    await toast('Sending email...').waitFor({ state: 'detached' })
    await page.waitForFunction(() => document.querySelector('#contact form button[type="submit"]')?.textContent === 'Submit')
  })

  it('goes from Submitting... straight to Submitted, and the loading toast turns into the answer', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, '/')
    await fillContact()
    // Every text the button shows, on each change and each frame, from the click until the answer is in.
    await page.evaluate(() => {
      const button = document.querySelector<HTMLButtonElement>('#contact form button[type="submit"]')!
      const seen: string[] = [button.textContent ?? '']
      const note = () => {
        const text = document.querySelector('#contact form button[type="submit"]')?.textContent ?? ''
        if (seen.at(-1) !== text) seen.push(text)
      }
      new MutationObserver(note).observe(document.querySelector('#contact')!, { subtree: true, childList: true, characterData: true })
      const sample = () => {
        note()
        requestAnimationFrame(sample)
      }
      requestAnimationFrame(sample)
      Object.assign(window, { buttonTexts: seen })
    })
    await button().click()
    await toast('Message sent!').waitFor()
    await page.waitForFunction(() => (window as unknown as { buttonTexts: string[] }).buttonTexts.at(-1) === 'Submitted')
    expect(await page.evaluate(() => (window as unknown as { buttonTexts: string[] }).buttonTexts)).toEqual(['Submit', 'Submitting...', 'Submitted'])
    // One toast, changed in place: the loading one never stands beside the answer.
    expect(await toast('Sending email...').count()).toBe(0)
    expect(await page.locator('[data-rht-toaster] [role="status"]').count()).toBe(1)
  })

  it('says Network error. Please try again. when the post gets no answer', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, '/')
    await fillContact()
    await page.route('**/*', (route) => (isBackgroundPost(route) ? route.abort('internetdisconnected') : route.fallback()))
    await button().click()
    await toast('Network error. Please try again.').waitFor()
    await toast('Sending email...').waitFor({ state: 'detached' })
  })

  it('a contact sub-route preselects its subject', async () => {
    page = await openPage(browser(), 'phone')
    await gotoHydrated(page, '/sponsorship/contact')
    expect(await page.locator('main form').getByLabel('I am interested in').inputValue()).toBe('Sponsorship')
    await gotoHydrated(page, '/workshop/legalOpinion/contact')
    expect(await page.locator('main form').getByLabel('I am interested in').inputValue()).toBe('Workshop')
    expect(await page.locator('main form').getByLabel('Message').inputValue()).toContain('Legal Opinion Writing 2025')
  })
})

describe('Become a Sponsor', () => {
  it.each([true, false])('opens the event’s contact form with Sponsorship chosen (JavaScript %s)', async (javaScriptEnabled) => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled })
    if (javaScriptEnabled) await gotoHydrated(page, '/conference/Resilience?tab=sponsor')
    else await page.goto(siteUrl('/conference/Resilience?tab=sponsor'))
    const eventTitle = await page.getByRole('heading', { level: 1 }).innerText()
    await page.getByRole('link', { name: 'Become a Sponsor' }).click()
    await page.waitForURL((url) => url.pathname === '/conference/Resilience/contact')
    const form = page.locator('main form')
    await form.waitFor()
    expect(await form.getByLabel('I am interested in').inputValue()).toBe('Sponsorship')
    expect(await form.getByLabel('Message').inputValue()).toContain(eventTitle)
  })
})

describe('training request dialog with JavaScript', () => {
  const dialog = () => page.getByRole('dialog')
  const button = () => dialog().getByRole('button', { name: /^Submit/ })

  async function openDialog(pathname: string): Promise<void> {
    page = await openPage(browser(), 'desktop')
    await gotoHydrated(page, pathname)
    await page.getByRole('link', { name: 'Request a training proposal', exact: true }).click()
    await dialog().waitFor({ state: 'visible' })
  }

  it('shows each field’s message and the required-fields toast above the dialog', async () => {
    await openDialog('/inhouse-training')
    await button().click()
    await toast(requiredFields).waitFor()
    expect(await toastShown(requiredFields)).toBe(true)
    expect(await toastOnTop(requiredFields)).toBe(true)
    const text = await dialog().innerText()
    for (const message of ['Name is required', 'Email is required', 'Phone is required', 'Organization is required', 'Message is required']) {
      expect(text).toContain(message)
    }
    expect(text).not.toContain('Failed to submit request')
    expect(await violationsAtRest()).toEqual([])
  })

  it('sends: Submitting... with the Sending request toast, then Submitted! and the success toast', async () => {
    await openDialog('/online-training')
    await dialog().getByLabel('Name').fill('Sipho Nkosi')
    await dialog().getByLabel('Email').fill('sipho@client.test')
    await dialog().getByLabel('Business number').fill('+27 11 555 0102')
    await dialog().getByLabel('Organization').fill('City Water')
    await dialog().getByLabel('Training topic or area of interest').fill('Data skills for 12 analysts')
    // Every text the button shows, on each change and each frame, from the click until the answer is in.
    await dialog()
      .locator('button[type="submit"]')
      .evaluate((button) => {
        const seen: string[] = [button.textContent ?? '']
        const note = () => {
          if (seen.at(-1) !== button.textContent) seen.push(button.textContent ?? '')
        }
        new MutationObserver(note).observe(button, { subtree: true, childList: true, characterData: true })
        const sample = () => {
          note()
          requestAnimationFrame(sample)
        }
        requestAnimationFrame(sample)
        Object.assign(window, { buttonTexts: seen })
      })
    const release = await holdPosts()
    await button().click()
    await toast('Sending request').waitFor()
    expect(await button().innerText()).toBe('Submitting...')
    expect(await button().isDisabled()).toBe(true)
    release()
    await toast('Your request was submitted successfully.').waitFor()
    expect(await button().innerText()).toBe('Submitted!')
    // Shown above the dialog's backdrop, not dimmed under it.
    expect(await toastShown('Your request was submitted successfully.')).toBe(true)
    expect(await toastOnTop('Your request was submitted successfully.')).toBe(true)
    expect(await page.evaluate(() => (window as unknown as { buttonTexts: string[] }).buttonTexts)).toEqual(['Submit Request', 'Submitting...', 'Submitted!'])
    expect(await toast('Sending request').count()).toBe(0)
  })

  it('says There was an error. Please try again later. when the post gets no answer', async () => {
    await openDialog('/online-training')
    await page.route('**/*', (route) => (isBackgroundPost(route) ? route.abort('internetdisconnected') : route.fallback()))
    await button().click()
    await toast('There was an error. Please try again later.').waitFor()
  })
})

describe('without JavaScript', () => {
  async function open(pathname: string): Promise<void> {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.goto(siteUrl(pathname))
  }

  async function post(button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForEvent('load'), button.click()])
  }

  it('the contact form shows the failure with its reason, then Message sent!', async () => {
    await open('/')
    const form = () => page.locator('#contact form')
    await post(form().getByRole('button', { name: 'Submit' }))
    expect(await form().locator('.form__summary-title').innerText()).toBe(requiredFields)
    expect(await form().innerText()).toContain('Full name is required')
    expect(await form().innerText()).not.toContain('Failed to send message')
    await form().getByLabel('Full name').fill('Naledi Dlamini')
    await form().getByLabel('Email').fill('naledi@client.test')
    await form().getByLabel('Phone').fill('+27 82 555 0101')
    await form().getByLabel('I am interested in').selectOption('Conference')
    await form().getByLabel('Message').fill('Group booking question.')
    await post(form().getByRole('button', { name: 'Submit' }))
    expect(await form().getByRole('status').innerText()).toContain('Message sent!')
    expect(await form().getByLabel('Full name').inputValue()).toBe('')
  })

  it('the training request page shows each field’s message, then the success message', async () => {
    await open('/inhouse-training/request')
    const form = () => page.locator('main form')
    await post(form().getByRole('button', { name: 'Submit Request' }))
    expect(await form().locator('.form__summary-title').innerText()).toBe(requiredFields)
    expect(await form().innerText()).toContain('Organization is required')
    expect(await form().innerText()).not.toContain('Failed to submit request')
    await form().getByLabel('Name').fill('Sipho Nkosi')
    await form().getByLabel('Email').fill('sipho@client.test')
    await form().getByLabel('Business number').fill('+27 11 555 0102')
    await form().getByLabel('Organization').fill('City Water')
    await form().getByLabel('Training topic or area of interest').fill('Governance for managers')
    await post(form().getByRole('button', { name: 'Submit Request' }))
    expect(await form().getByRole('status').innerText()).toContain('Your request was submitted successfully.')
    expect(await form().getByRole('button').innerText()).toBe('Submitted!')
  })
})
