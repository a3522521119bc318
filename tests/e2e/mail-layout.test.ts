// The registration e-mail as a mail client shows it in a 600 px wide reading pane: the status link, a long
// unbroken address, stays inside the message's card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, useBrowser } from '../support/browser.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const browser = useBrowser()
let sink: SmtpSink
let site: RunningSite

beforeAll(async () => {
  sink = await startSmtpSink()
  site = await startSite({ env: { SMTP_URL: sink.url, FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  await sink?.stop()
})

describe('the registration confirmation at 600 px', () => {
  it('keeps the status link inside its card', async () => {
    const response = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'legalOpinion',
        code: 'LOW2025',
        companyName: 'Acme Legal',
        address: '1 Main Road, Sandton',
        email: 'mail-layout@acme.test',
        tel: '+27 11 555 0100',
        vatNumber: '4123456789',
        delegates: [{ name: 'Thandi Mokoena', position: 'Attorney', email: 'mail-layout-thandi@acme.test' }],
        attendanceOption: 'venue',
        paymentMethod: 'Bank Transfer',
        legalAgreement: true,
      }),
    })
    expect(response.status).toBe(201)
    const { reference, statusUrl } = (await response.json()) as { reference: string; statusUrl: string }
    const mail = await sink.waitFor(
      (candidate) => candidate.recipients.includes('mail-layout@acme.test') && String(candidate.parsed.subject).startsWith(`Registration ${reference}`),
    )
    expect(mail.parsed.html).toContain(statusUrl)

    const page = await openPage(browser(), 'desktop', { viewport: { width: 600, height: 900 } })
    try {
      await page.setContent(String(mail.parsed.html))
      const overflow = await page.evaluate((url) => {
        const card = document.querySelector('body > div')!.getBoundingClientRect()
        const link = Array.from(document.querySelectorAll('a')).find((anchor) => anchor.textContent === url)!
        const box = link.getBoundingClientRect()
        return {
          linkRight: Math.max(...Array.from(link.getClientRects()).map((rect) => rect.right)),
          cardRight: card.right,
          width: box.width,
          pageWidth: document.documentElement.scrollWidth,
        }
      }, statusUrl)
      expect(overflow.linkRight, JSON.stringify(overflow)).toBeLessThanOrEqual(overflow.cardRight)
      expect(overflow.pageWidth).toBeLessThanOrEqual(600)
    } finally {
      await page.context().close()
    }
  })
})
