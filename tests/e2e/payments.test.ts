// Card payment end to end in the browser, with and without JavaScript: register, Pay, the checkout page (the
// site's sandbox by default, or the local Yoco stand-in with YOCO_* set), back to the site, paid, receipt by e-mail.
import type { Page } from 'playwright-core'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startYocoStandIn, type YocoStandIn } from '../fixtures/yoco-server.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { OUTBOX_METRICS_TOKEN, waitForEmptyOutbox } from '../support/outbox.ts'
import { freePort, startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const registerPath = '/conference/Resilience?tab=register'
/** Venue for one delegate: R 8 490.00 plus 15% VAT. */
const TOTAL = 'R 9 763.50'
const TOTAL_CENTS = 976350
/** The business clock of the embedded dataset (SITE_DATE unset): 1 March 2025, 09:00. Every date the product writes follows it. */
const BUSINESS_DAY = '1 March 2025'

const browser = useBrowser()
let page: Page
afterEach(async () => {
  await page?.context().close()
})

const form = () => page.locator('form.registration-form')

/** Registers one delegate for Resilience (by card unless told), with a forged total the server must ignore. */
async function registerOneDelegate(
  site: RunningSite,
  company: string,
  javaScript: boolean,
  paymentMethod: 'Card / EFT / GPay' | 'Bank Transfer' = 'Card / EFT / GPay',
  submitButton: 'Submit Form' | `Pay ${typeof TOTAL}` = 'Submit Form',
): Promise<{ reference: string; statusPath: string }> {
  page = await openPage(browser(), 'desktop', { javaScriptEnabled: javaScript })
  await page.goto(`${site.baseUrl}${registerPath}`)
  // The registration form loads lazily: a choice made before React claims it would be reset by hydration.
  if (javaScript) await waitForHydration(page)
  await form()
    .getByRole('radio', { name: /^Venue/ })
    .check()
  await form().getByLabel('Company name').fill(company)
  await form().getByLabel('Address').fill('1 Main Road, Sandton')
  await form().getByLabel('E-mail', { exact: true }).first().fill('bookings@acme.test')
  await form().getByLabel('Telephone').fill('+27 11 555 0100')
  await form().getByLabel('VAT number').fill('4123456789')
  const delegate = form().locator('fieldset.form__delegate').first()
  await delegate.getByLabel('Name').fill('Thandi Mokoena')
  await delegate.getByLabel('Position').fill('Director')
  await delegate.getByLabel('E-mail').fill('thandi@acme.test')
  await form().getByRole('radio', { name: paymentMethod }).check()
  await form()
    .getByRole('checkbox', { name: /terms and conditions/ })
    .check()
  // What the old site did: the browser states an amount. The server must charge its own total regardless.
  await form().evaluate((element) => {
    for (const [name, value] of Object.entries({ totalPrice: '1.00', amount: '100' })) {
      const input = document.createElement('input')
      input.type = 'hidden'
      input.name = name
      input.value = value
      element.append(input)
    }
  })
  // Without JavaScript the total and the Pay button appear once the server has rendered the chosen method.
  if (submitButton !== 'Submit Form' && !javaScript) await form().getByRole('button', { name: 'Update total' }).click()
  await form().getByRole('button', { name: submitButton }).click()
  if (submitButton !== 'Submit Form') return { reference: '', statusPath: '' }
  await page.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
  const url = new URL(page.url())
  return { reference: /\/registrations\/([A-Z0-9]+)\//.exec(url.pathname)![1]!, statusPath: url.pathname }
}

async function expectPaid(site: RunningSite, sink: SmtpSink, reference: string, statusPath: string, javaScript: boolean): Promise<void> {
  await page.waitForURL(`**${statusPath}/payment/success`)
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Payment received')
  if (javaScript) expect(await accessibilityViolations(page)).toEqual([])
  const receipt = await sink.waitFor((mail) => mail.parsed.subject === `Payment received: registration ${reference}`)
  expect(receipt.recipients).toEqual(['bookings@acme.test'])
  expect(receipt.parsed.text).toContain(`Amount paid: ${TOTAL}`)
  expect(receipt.parsed.text).toContain(`Paid on: ${BUSINESS_DAY} at 09:00 (SAST)`)
  // A card receipt carries the tax invoice, as a bank-transfer receipt does.
  const invoice = receipt.parsed.attachments.find((attachment) => /^tax-invoice-INV-\d{6}\.pdf$/.test(attachment.filename ?? ''))
  expect(invoice?.contentType).toBe('application/pdf')
  expect(invoice?.content.subarray(0, 5).toString()).toBe('%PDF-')
  // Exactly one receipt, and the status page says paid.
  await waitForEmptyOutbox(site)
  expect(sink.received.filter((mail) => mail.parsed.subject === receipt.parsed.subject)).toHaveLength(1)
  await page.goto(`${site.baseUrl}${statusPath}`)
  expect(await page.locator('main').innerText()).toContain('Payment received.')
}

describe('card payment with the sandbox checkout (no Yoco key)', () => {
  let site: RunningSite
  let sink: SmtpSink
  beforeAll(async () => {
    sink = await startSmtpSink()
    site = await startSite({ env: { SMTP_URL: sink.url, FORM_RATE_LIMIT: '0', METRICS_TOKEN: OUTBOX_METRICS_TOKEN } })
  })
  afterAll(async () => {
    await site?.stop()
    await sink?.stop()
  })

  for (const javaScript of [true, false]) {
    it(`registers, pays on the sandbox page and shows the registration paid ${javaScript ? 'with' : 'without'} JavaScript`, async () => {
      const { reference, statusPath } = await registerOneDelegate(site, `Sandbox ${javaScript ? 'JS' : 'no-JS'} Ltd`, javaScript)
      await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
      await page.waitForURL('**/payments/sandbox/*')
      const main = await page.locator('main').innerText()
      expect(main).toContain('No card is charged')
      expect(main).toContain(TOTAL)
      expect(main).toContain(reference)
      // axe needs script in the page; the same HTML is checked in the run with JavaScript.
      if (javaScript) expect(await accessibilityViolations(page)).toEqual([])

      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.waitForURL(`**${statusPath}/payment/cancel`)
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Payment cancelled')
      await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
      await page.waitForURL('**/payments/sandbox/*')
      await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
      await expectPaid(site, sink, reference, statusPath, javaScript)
    })
  }

  for (const javaScript of [true, false]) {
    it(`submits and goes straight to the checkout from the form's Pay button ${javaScript ? 'with' : 'without'} JavaScript`, async () => {
      const company = `Form Pay ${javaScript ? 'JS' : 'no-JS'} Ltd`
      await registerOneDelegate(site, company, javaScript, 'Card / EFT / GPay', `Pay ${TOTAL}`)
      await page.waitForURL('**/payments/sandbox/*')
      // With JavaScript the router may still be rendering the new page when the address changes.
      await page.getByText('No card is charged').waitFor()
      const main = await page.locator('main').innerText()
      expect(main).toContain(TOTAL)
      const reference = /Registration\s+([A-Z0-9]{6,})/.exec(main)?.[1]
      expect(reference).toBeDefined()
      const confirmation = await sink.waitFor((mail) => mail.parsed.subject === `Registration ${reference}: Economic Resilience Conference 2025`)
      const statusPath = new RegExp(`/registrations/${reference}/[\\w-]+(?![\\w/-])`).exec(confirmation.parsed.text ?? '')![0]
      expect(confirmation.parsed.text).toContain(company)
      await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
      await expectPaid(site, sink, reference!, statusPath, javaScript)
    })
  }

  it('sends a bank-transfer registrant a correct tax invoice and offers it on the status page', async () => {
    const { reference, statusPath } = await registerOneDelegate(site, 'Invoice Check (Pty) Ltd', false, 'Bank Transfer')
    const confirmation = await sink.waitFor((mail) => mail.parsed.subject === `Registration ${reference}: Economic Resilience Conference 2025`)
    const invoice = confirmation.parsed.attachments.find((attachment) => attachment.contentType === 'application/pdf')
    expect(invoice?.filename).toMatch(/^tax-invoice-INV-\d{6}\.pdf$/)
    expect(confirmation.parsed.attachments.some((attachment) => attachment.contentType.startsWith('text/calendar'))).toBe(true)
    expect(confirmation.parsed.text).toContain(`Payment reference: ${reference}`)
    expect(confirmation.parsed.text).toContain('Please pay in full within 5 days of the invoice date (by 6 March 2025)')
    expect(confirmation.parsed.text).toMatch(new RegExp(`INV-\\d{6}, issued ${BUSINESS_DAY}`))

    // The PDF's text as pdf.js reads it: every figure of a full tax invoice.
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(invoice!.content)), { mergePages: true })
    const flat = text.replace(/\s+/g, ' ')
    for (const expected of [
      'Tax Invoice',
      'Invoice Check (Pty) Ltd',
      '1 Main Road, Sandton',
      'VAT number: 4123456789',
      `Registration reference: ${reference}`,
      'Economic Resilience Conference 2025: Venue',
      '1 R 8 490.00 R 8 490.00',
      'Total excl. VAT R 8 490.00',
      'VAT at 15% R 1 273.50',
      `Total incl. VAT ${TOTAL}`,
      'Payment in full within 5 days of the invoice date',
    ]) {
      expect(flat).toContain(expected)
    }
    expect(flat).toMatch(/Invoice number: INV-\d{6}/)
    expect(flat).toContain(`Date of issue: ${BUSINESS_DAY}`)
    expect(flat).toContain('Payment due: 6 March 2025')

    const link = page.getByRole('link', { name: /Download tax invoice INV-\d{6}/ })
    const response = await page.request.get(`${site.baseUrl}${await link.getAttribute('href')}`)
    expect(response.headers()['content-type']).toBe('application/pdf')
    expect(Buffer.from(await response.body()).equals(invoice!.content)).toBe(true)
    expect(new URL(`${site.baseUrl}${await link.getAttribute('href')}`).pathname).toBe(`${statusPath}/invoice.pdf`)
  })

  it("links 'Add to calendar' on the event page to the event's calendar file", async () => {
    page = await openPage(browser(), 'desktop', { javaScriptEnabled: false })
    await page.goto(`${site.baseUrl}/workshop/legalOpinion`)
    const link = page.getByRole('link', { name: 'Add to calendar' })
    expect(await link.getAttribute('href')).toBe('/workshop/legalOpinion/calendar.ics')
    const response = await page.request.get(`${site.baseUrl}/workshop/legalOpinion/calendar.ics`)
    expect(response.headers()['content-type']).toBe('text/calendar; charset=utf-8')
    const ics = await response.text()
    // The two days are two events, each with that day's hours.
    expect(ics.match(/^BEGIN:VEVENT/gm)).toHaveLength(2)
    expect(ics).toContain('DTSTART;TZID=Africa/Johannesburg:20250703T080000')
    expect(ics).toContain('DTSTART;TZID=Africa/Johannesburg:20250704T080000')
  })
})

describe('card payment with Yoco (the local stand-in)', () => {
  let site: RunningSite
  let sink: SmtpSink
  let yoco: YocoStandIn
  beforeAll(async () => {
    sink = await startSmtpSink()
    yoco = await startYocoStandIn()
    site = await startSite({
      env: {
        SMTP_URL: sink.url,
        FORM_RATE_LIMIT: '0',
        METRICS_TOKEN: OUTBOX_METRICS_TOKEN,
        YOCO_SECRET_KEY: yoco.secretKey,
        YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
        YOCO_API_BASE: yoco.apiBase,
      },
    })
    yoco.setWebhookUrl(`${site.baseUrl}/api/payments/yoco/webhook`)
  })
  afterAll(async () => {
    await site?.stop()
    await yoco?.close()
    await sink?.stop()
  })

  for (const javaScript of [true, false]) {
    it(`charges the server's total on Yoco's page and marks the registration paid once ${javaScript ? 'with' : 'without'} JavaScript`, async () => {
      const { reference, statusPath } = await registerOneDelegate(site, `Yoco ${javaScript ? 'JS' : 'no-JS'} Ltd`, javaScript)
      await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
      await page.waitForURL(`${yoco.apiBase}/checkout/*`)
      const request = yoco.requests.at(-1)
      expect(request?.status).toBe(200)
      expect(request?.body).toMatchObject({ amount: TOTAL_CENTS, currency: 'ZAR', metadata: { registrationReference: reference } })
      expect(await page.locator('[data-amount]').innerText()).toBe('R 9763.50')

      // Back on the site before the webhook came: the page says it is confirming and reloads itself.
      const early = await browser().newPage({ javaScriptEnabled: javaScript })
      await early.goto(`${site.baseUrl}${statusPath}/payment/success`)
      expect(await early.getByRole('heading', { level: 1 }).innerText()).toBe('Confirming your payment')
      await page.getByRole('button', { name: /^Pay R/ }).click()
      await early.getByRole('heading', { name: 'Payment received' }).waitFor()
      await early.close()

      await expectPaid(site, sink, reference, statusPath, javaScript)
      const delivery = yoco.deliveries.at(-1)!
      expect(delivery.status).toBe(200)
      const replay = await yoco.redeliver(delivery)
      expect(replay.status).toBe(200)
      expect(JSON.parse(replay.answer)).toMatchObject({ replayed: true })
    })
  }

  it('refuses a forged webhook with a 4xx', async () => {
    const response = await fetch(`${site.baseUrl}/api/payments/yoco/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,Zm9yZ2Vk',
      },
      body: JSON.stringify({ type: 'payment.succeeded', payload: { amount: TOTAL_CENTS, currency: 'ZAR', metadata: { checkoutId: 'ch_any' } } }),
    })
    expect(response.status).toBe(400)
  })
})

describe('when Yoco refuses the checkout', () => {
  let site: RunningSite
  let yoco: YocoStandIn
  beforeAll(async () => {
    yoco = await startYocoStandIn()
    site = await startSite({
      env: { FORM_RATE_LIMIT: '0', YOCO_SECRET_KEY: 'sk_test_revoked', YOCO_WEBHOOK_SECRET: yoco.webhookSecret, YOCO_API_BASE: yoco.apiBase },
    })
  })
  afterAll(async () => {
    await site?.stop()
    await yoco?.close()
  })

  const refusal = 'Failed to generate redirect URL: The payment provider answered 403: A key is required, but has not been specified.'

  for (const javaScript of [true, false]) {
    it(`shows the specification's failure words and keeps the Pay button ${javaScript ? 'with' : 'without'} JavaScript`, async () => {
      const { statusPath } = await registerOneDelegate(site, `Refused ${javaScript ? 'JS' : 'no-JS'} Ltd`, javaScript)
      await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
      const alert = page.getByRole('alert').filter({ hasText: 'Failed to generate redirect URL' })
      await alert.waitFor()
      expect(await alert.innerText()).toBe(refusal)
      expect(new URL(page.url()).pathname).toBe(javaScript ? statusPath : `${statusPath}/pay`)
      expect(await page.getByRole('button', { name: `Pay ${TOTAL}` }).isEnabled()).toBe(true)
    })
  }
})

describe('browsing at 127.0.0.1 while SITE_URL names localhost', () => {
  let site: RunningSite
  let port: number
  beforeAll(async () => {
    port = await freePort()
    site = await startSite({ port, env: { SITE_URL: `http://localhost:${port}`, FORM_RATE_LIMIT: '0' } })
  })
  afterAll(async () => {
    await site?.stop()
  })

  it('follows the Pay button’s redirect to the site address without JavaScript (the policy’s form-action allows it)', async () => {
    const { reference } = await registerOneDelegate(site, 'Other Address Ltd', false)
    expect(new URL(page.url()).host).toBe(`127.0.0.1:${port}`)
    await page.getByRole('button', { name: `Pay ${TOTAL}` }).click()
    await page.waitForURL(`http://localhost:${port}/payments/sandbox/*`, { timeout: 15_000 })
    const main = await page.locator('main').innerText()
    expect(main).toContain('No card is charged')
    expect(main).toContain(reference)
  })
})
