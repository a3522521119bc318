// The event days at the door, in Chromium against the real site on SQLite and its SMTP sink: every delegate's e-mail
// carries their pass (a QR code a scanner reads back, the code and the link to their private pass page), the pass page
// shows only name, event, days and code; at 390 px a staff member checks a delegate in by keyboard from a search, a
// second device sees the count move, a second scan is refused with who and when, an undo takes a check-in back, a scan
// made while the connection is down waits on the device and is sent when it returns; the page works without
// JavaScript; and a pass shown to the camera (Chromium playing a video made from the e-mailed QR image) checks in.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import jsQR from 'jsqr'
import { chromium, type Browser, type Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, describe, expect, it } from 'vitest'
import { createStaffAccount, signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { chromiumFlags, chromiumPath } from '../support/chromium.ts'
import { writeY4mOfPng } from '../support/fake-camera.ts'
import { onSite, registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite } from '../support/site-server.ts'
import type { ReceivedMail } from '../support/smtp-sink.ts'

const THANDI: StaffAccount = { email: 'thandi@example.com', name: 'Thandi Zulu', role: 'staff', password: 'door keeper at the indaba 2025' }
const SIPHO: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Khumalo', role: 'staff', password: 'second desk by the lifts 2025' }
const CHECK_IN = '/admin/events/event-legal-opinion/check-in'

const browser = useBrowser()

/** A delegate's pass as their e-mail gives it: the code, the pass page's address and the QR image. */
interface MailedPass {
  name: string
  code: string
  url: string
  png: Buffer
}

function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png)
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
}

describe('delegate passes and check-in at the door', () => {
  // The first morning of the event: the door records only the day the business clock says it is.
  const { site, sink } = useBackOfficeSite([THANDI, SIPHO], { FORM_RATE_LIMIT: '0', SITE_DATE: '2025-07-03T07:30:00+02:00' })

  /** Registers delegates (unique names) for Legal Opinion Writing by bank transfer; answers the receipt and each delegate's e-mailed pass. */
  async function register(names: string[]): Promise<{ receipt: RegistrationReceipt; passes: MailedPass[] }> {
    const unique = Math.random().toString(36).slice(2, 8)
    const delegates = names.map((name, index) => ({ name: `${name} ${unique}`, position: 'Attorney', email: `delegate-${index}-${unique}@acme.test` }))
    const response = await fetch(`${site().baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ delegates })),
    })
    expect(response.status).toBe(201)
    const receipt = (await response.json()) as RegistrationReceipt
    const passes: MailedPass[] = []
    for (const delegate of delegates) {
      const mail: ReceivedMail = await sink().waitFor((received) => received.recipients.includes(delegate.email))
      const [, code, url] = /pass ([A-Z0-9]{4}-[A-Z0-9]{4}), (\S+)/.exec(mail.parsed.text ?? '')!
      const png = mail.parsed.attachments.find((attachment) => attachment.contentType === 'image/png')!.content
      passes.push({ name: delegate.name, code: code!, url: onSite(url!, site().baseUrl), png })
    }
    return { receipt, passes }
  }

  async function desk(account: StaffAccount, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const page = await openPage(browser(), 'phone', options)
    await signInAt(page, site().baseUrl, CHECK_IN, account)
    await page.getByRole('heading', { level: 1, name: 'Check-in: Legal Opinion Writing 2025' }).waitFor()
    if (options.javaScriptEnabled !== false) await waitForHydration(page)
    return page
  }

  async function checkedInCount(page: Page): Promise<number> {
    return Number(/^(\d+) checked in/.exec(await page.locator('.check-in-counts').innerText())![1])
  }

  async function expectAccessible(page: Page): Promise<void> {
    expect(await accessibilityViolations(page), `axe on ${new URL(page.url()).pathname}`).toEqual([])
  }

  it('e-mails each delegate a pass whose QR code reads back, and the pass page shows only name, event, days and code', async () => {
    const { receipt, passes } = await register(['Lerato Mahlangu', 'Johan de Beer'])
    const [lerato] = passes
    expect(decodeQr(lerato!.png)).toBe(lerato!.code)

    const page = await openPage(browser(), 'phone')
    const response = await page.goto(lerato!.url)
    expect(response!.headers()['cache-control']).toBe('private, no-store')
    await page.getByRole('heading', { level: 1, name: lerato!.name }).waitFor()
    await waitForHydration(page)
    const text = await page.locator('main').innerText()
    expect(text).toContain('Legal Opinion Writing 2025')
    expect(text).toContain('3–4 July 2025')
    expect(text).toContain(`Pass code ${lerato!.code}`)
    expect(text).not.toContain('Acme')
    expect(text).not.toContain('@acme.test')
    await page.getByRole('img', { name: `QR code of pass ${lerato!.code}` }).waitFor()
    await expectAccessible(page)
    await page.screenshot({ path: path.join(tmpdir(), 'eventdays-pass.png') })

    await page.goto(onSite(receipt.statusUrl, site().baseUrl))
    await page.getByRole('heading', { name: 'Passes' }).waitFor()
    await waitForHydration(page)
    for (const pass of passes) await page.getByRole('img', { name: `QR code of pass ${pass.code}` }).waitFor()
    await expectAccessible(page)
    expect((await page.goto(`${site().baseUrl}/pass/not-a-token`))!.status()).toBe(404)
    await page.context().close()
  })

  it('checks in by search and keyboard at 390 px, refuses a second scan, undoes, and a second device sees the count', async () => {
    const { passes } = await register(['Naledi Khumalo', 'Pieter Botha'])
    const [naledi, pieter] = passes as [MailedPass, MailedPass]
    const first = await desk(THANDI)
    const second = await desk(SIPHO)
    const before = await checkedInCount(first)

    await first.getByLabel('Name, company or reference').fill(naledi.name)
    await first.keyboard.press('Enter')
    // The search's list has loaded: a check-in made while it loads would be shown over by the list as it was.
    await first.waitForURL((address) => address.searchParams.get('q') === naledi.name)
    const checkInButton = first.getByRole('button', { name: `Check in ${naledi.name}` })
    await checkInButton.focus()
    await first.keyboard.press('Enter')
    const answer = first.locator('.check-in-answer')
    await answer.getByText(`${naledi.name} checked in.`).waitFor()
    expect(await answer.innerText()).toContain('Not paid in full')
    await first.getByText(/^Checked in at \d\d:\d\d by Thandi Zulu$/).waitFor()
    expect(await checkedInCount(first)).toBe(before + 1)
    await expectAccessible(first)
    await first.screenshot({ path: path.join(tmpdir(), 'eventdays-check-in.png'), fullPage: true })

    // Pieter's pass typed on the first device: the second sees the count move without reloading.
    await first.getByLabel('Pass code').fill(pieter.code.toLowerCase())
    await first.keyboard.press('Enter')
    await answer.getByText(`${pieter.name} checked in.`).waitFor()
    await second.waitForFunction((expected) => document.querySelector('.check-in-counts')?.textContent?.startsWith(`${expected} checked in`), before + 2, {
      timeout: 10_000,
    })

    // The same pass scanned again on the second device is refused, saying when and by whom.
    await second.getByLabel('Pass code').fill(pieter.code)
    await second.keyboard.press('Enter')
    await second
      .getByRole('alert')
      .getByText(new RegExp(`^${pieter.name}: already checked in at \\d\\d:\\d\\d by Thandi Zulu\\.$`))
      .waitFor()
    expect(await checkedInCount(second)).toBe(before + 2)
    await expectAccessible(second)

    await first.getByRole('button', { name: `Undo the check-in of ${naledi.name}` }).click()
    await answer.getByText(`Check-in of ${naledi.name} undone.`).waitFor()
    expect(await checkedInCount(first)).toBe(before + 1)

    // The venue's Wi-Fi drops: the scan waits on the device, then goes when the connection returns.
    await first.context().setOffline(true)
    await first.getByLabel('Pass code').fill(naledi.code)
    await first.keyboard.press('Enter')
    // Judged at once by the list kept on the device: in, provisional until the server confirms it.
    await first.getByText(`${naledi.name}: in, provisional (no connection). It is confirmed when the connection returns.`).waitFor()
    await first.getByText('1 scan waits on this device for the connection; it is sent when it returns.').waitFor()
    await first.context().setOffline(false)
    await first.getByText('1 scan waits on this device').waitFor({ state: 'detached', timeout: 10_000 })
    await first.waitForFunction((expected) => document.querySelector('.check-in-counts')?.textContent?.startsWith(`${expected} checked in`), before + 2, {
      timeout: 10_000,
    })
    await first.context().close()
    await second.context().close()
  })

  it('answers a scan whose answer was lost, and one whose request stalled, with exactly one green result each', async () => {
    const { passes } = await register(['Busisiwe Ngcobo', 'Andile Mthembu'])
    const [busi, andile] = passes as [MailedPass, MailedPass]
    const page = await desk(THANDI)
    const before = await checkedInCount(page)
    // Every answer the desk shows, green or red, in order: a notice replaced before the test reads it still counts.
    await page.evaluate(() => {
      const seen: string[] = []
      const last = { green: '', red: '' }
      Object.assign(window, { seenAnswers: seen })
      new MutationObserver(() => {
        const now = {
          green: document.querySelector('.check-in-answer > strong')?.textContent ?? '',
          red: document.querySelector('main [role="alert"]')?.textContent ?? '',
        }
        for (const colour of ['green', 'red'] as const) {
          if (now[colour] !== last[colour] && now[colour] !== '') seen.push(`${colour}: ${now[colour]}`)
          last[colour] = now[colour]
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true })
    })

    // Busisiwe's first request reaches the server, but its answer is lost on the way back.
    let dropped = false
    await page.route('**/check-in/live', async (route) => {
      if (route.request().method() === 'POST' && !dropped && route.request().postData()?.includes(busi.code)) {
        dropped = true
        await route.fetch()
        return route.abort('connectionreset')
      }
      return route.fallback()
    })
    await page.getByLabel('Pass code').fill(busi.code)
    await page.keyboard.press('Enter')
    await page.locator('.check-in-answer').getByText(`${busi.name} checked in.`).waitFor({ timeout: 30_000 })
    await page.getByText('scan waits on this device').waitFor({ state: 'detached' })
    await page.getByText(/^No connection/).waitFor({ state: 'detached' })

    // Andile's request stalls (no answer at all): the desk stops waiting, queues it, and sends it again.
    let stalled = false
    await page.route('**/check-in/live', async (route) => {
      if (route.request().method() === 'POST' && !stalled && route.request().postData()?.includes(andile.code)) {
        stalled = true
        return // never answered
      }
      return route.fallback()
    })
    await page.getByLabel('Pass code').fill(andile.code)
    await page.keyboard.press('Enter')
    await page.getByText(`${andile.name}: in, provisional (no connection). It is confirmed when the connection returns.`).waitFor({ timeout: 30_000 })
    await page.locator('.check-in-answer').getByText(`${andile.name} checked in.`).waitFor({ timeout: 30_000 })
    await page.getByText(/^No connection/).waitFor({ state: 'detached' })
    await page.waitForFunction((expected) => document.querySelector('.check-in-counts')?.textContent?.startsWith(`${expected} checked in`), before + 2)

    const seen = (await page.evaluate(() => (window as unknown as { seenAnswers: string[] }).seenAnswers)).filter((text) => !text.includes('provisional'))
    expect(seen).toEqual([`green: ${busi.name} checked in.`, `green: ${andile.name} checked in.`])
    await page.context().close()
    // Each fallback waits out the desk's 5 s answer time and a 3 s resend round: on a busy machine, more than a minute.
  }, 120_000)

  it('confirms once a check-in by the button whose answer was lost, instead of saying it was not sent', async () => {
    const { passes } = await register(['Nomvula Sithole'])
    const [nomvula] = passes as [MailedPass]
    const page = await desk(THANDI)
    await page.getByLabel('Name, company or reference').fill(nomvula.name)
    await page.keyboard.press('Enter')
    // The search's list has loaded: a check-in made while it loads would be shown over by the list as it was.
    await page.waitForURL((address) => address.searchParams.get('q') === nomvula.name)
    // The server records the check-in, but its answer never reaches the phone.
    let dropped = false
    await page.route('**/check-in/live', async (route) => {
      if (route.request().method() === 'POST' && !dropped && /name="delegateId"\r\n\r\n[^\r]/.test(route.request().postData() ?? '')) {
        dropped = true
        await route.fetch()
        return route.abort('connectionreset')
      }
      return route.fallback()
    })
    await page.getByRole('button', { name: `Check in ${nomvula.name}` }).click()
    await page.getByText(`${nomvula.name}: in, provisional (no connection). It is confirmed when the connection returns.`).waitFor({ timeout: 30_000 })
    // The queued scan of the row's pass code carries the first request's scan id: the server knows it, so it is green.
    await page.locator('.check-in-answer').getByText(`${nomvula.name} checked in.`).waitFor({ timeout: 30_000 })
    await page.getByText(/^Checked in at \d\d:\d\d by Thandi Zulu$/).waitFor()
    expect(await page.getByText('already checked in').count()).toBe(0)
    expect(dropped).toBe(true)
    await page.context().close()
  })

  it('checks in from a search without JavaScript', async () => {
    const { receipt, passes } = await register(['Ayanda Nkosi'])
    const page = await desk(SIPHO, { javaScriptEnabled: false })
    await page.getByLabel('Name, company or reference').fill(receipt.reference)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('button', { name: `Check in ${passes[0]!.name}` }).click()
    await page.getByText(`${passes[0]!.name} checked in.`).waitFor()
    await page.getByText(/^Checked in at \d\d:\d\d by Sipho Khumalo$/).waitFor()
    await page.context().close()
  })

  describe('with a camera', () => {
    const videoDir = mkdtempSync(path.join(tmpdir(), 'events-fake-camera-'))
    let cameraBrowser: Browser | undefined
    afterAll(async () => {
      await cameraBrowser?.close()
      rmSync(videoDir, { recursive: true, force: true })
    })

    it('checks in the pass the camera sees: a video of the e-mailed QR image', async () => {
      const { passes } = await register(['Zanele Dube'])
      const video = path.join(videoDir, 'pass.y4m')
      writeY4mOfPng(video, passes[0]!.png)
      cameraBrowser = await chromium.launch({
        executablePath: chromiumPath,
        args: [...chromiumFlags, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
      })
      const context = await cameraBrowser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' })
      await context.grantPermissions(['camera'], { origin: site().baseUrl })
      context.setDefaultTimeout(10_000)
      const page = await context.newPage()
      await signInAt(page, site().baseUrl, CHECK_IN, THANDI)
      await waitForHydration(page)
      await page.getByRole('button', { name: 'Scan with the camera' }).click()
      await page.locator('.check-in-answer').getByText(`${passes[0]!.name} checked in.`).waitFor({ timeout: 15_000 })
      await page.getByRole('button', { name: 'Stop the camera' }).click()
      await context.close()
    })
  })
})

describe('joining instructions and the personal join link', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-joining-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('saves the meeting link (refusing one that is not https), then on the event day the link records attendance and opens the meeting', async () => {
    await createStaffAccount(dataDir, THANDI)
    // Before the event (the tests' 1 March 2025): an online registration, and staff write the instructions.
    const before = await startSite({ env: { DATA_DIR: dataDir, FORM_RATE_LIMIT: '0' } })
    let statusPath: string
    try {
      const unique = Math.random().toString(36).slice(2, 8)
      const response = await fetch(`${before.baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          registrationBody({
            attendanceOption: 'online',
            delegates: [{ name: `Refilwe Molefe ${unique}`, position: 'Attorney', email: `refilwe-${unique}@acme.test` }],
          }),
        ),
      })
      expect(response.status).toBe(201)
      statusPath = new URL(((await response.json()) as RegistrationReceipt).statusUrl).pathname
      // The registrant's status page and the delegate's own page speak of joining online: no door pass, no QR code.
      const visitor = await openPage(browser(), 'phone')
      await visitor.goto(`${before.baseUrl}${statusPath}`)
      await visitor.getByRole('heading', { level: 2, name: 'Joining online' }).waitFor()
      expect(await visitor.getByRole('heading', { name: 'Passes' }).count()).toBe(0)
      expect(await visitor.locator('main svg').count()).toBe(0)
      const joinPath = await visitor.getByRole('link', { name: /personal link to join online/ }).getAttribute('href')
      await visitor.goto(`${before.baseUrl}${joinPath!.replace('/join/', '/pass/')}`)
      await visitor.getByText('You attend online: there is no door to pass.').waitFor()
      expect(await visitor.getByRole('link', { name: 'Join online' }).getAttribute('href')).toBe(joinPath)
      expect(await visitor.getByText('Show this QR code at the registration desk').count()).toBe(0)
      expect(await visitor.locator('main svg').count()).toBe(0)
      expect(await accessibilityViolations(visitor)).toEqual([])
      await visitor.context().close()
      const page = await openPage(browser(), 'phone')
      await signInAt(page, before.baseUrl, '/admin/events', THANDI)
      await page.getByRole('link', { name: 'Joining instructions of Legal Opinion Writing 2025' }).click()
      await page.getByRole('heading', { level: 1, name: 'Joining instructions: Legal Opinion Writing 2025' }).waitFor()
      await waitForHydration(page)
      await page.getByLabel('For the venue: arrival, parking, start time').fill('Arrive from 07:30; parking in the basement. We start at 08:30.')
      await page.getByLabel('Meeting link, every day').fill('http://meet.example.com/legal-opinion')
      await page.getByRole('button', { name: 'Save the joining instructions' }).click()
      await page.locator('#field-meetingUrl-error').getByText('Paste the meeting’s web address, starting with https://, or leave it empty.').waitFor()
      expect(await accessibilityViolations(page)).toEqual([])
      await page.getByLabel('Meeting link, every day').fill('https://meet.example.com/legal-opinion')
      await page.getByRole('button', { name: 'Save the joining instructions' }).click()
      await page.getByRole('status').getByText('The joining instructions are saved.').waitFor()
      expect(await accessibilityViolations(page)).toEqual([])
      await page.context().close()
    } finally {
      await before.stop()
    }

    // The first day of the event, 3 July 2025 at 09:00.
    const onTheDay = await startSite({ env: { DATA_DIR: dataDir, SITE_DATE: '2025-07-03T09:00:00+02:00' } })
    try {
      const page = await openPage(browser(), 'phone')
      await page.route('https://meet.example.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Meeting</title><h1>The meeting</h1>' }),
      )
      await page.goto(`${onTheDay.baseUrl}${statusPath}`)
      await page.getByRole('link', { name: /personal link to join online/ }).click()
      await page.getByRole('heading', { level: 1, name: 'Join Legal Opinion Writing 2025 online' }).waitFor()
      await page.getByText('Joining now records your attendance for today.').waitFor()
      expect(await accessibilityViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'Join the meeting' }).click()
      await page.waitForURL('https://meet.example.com/legal-opinion')

      const desk = await openPage(browser(), 'phone')
      await signInAt(desk, onTheDay.baseUrl, '/admin/events/event-legal-opinion/joining', THANDI)
      await desk.getByText('Day 1, 03 Jul 2025: 1').waitFor()
      await desk.context().close()
      await page.context().close()
    } finally {
      await onTheDay.stop()
    }
  })
})
