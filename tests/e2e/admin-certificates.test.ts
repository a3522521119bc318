// Certificates of attendance in Chromium against the real site on SQLite and its SMTP sink: a delegate registered
// before the event is checked in at the door on its first day (the site restarted on that date). After the event
// (restarted again) the round holds the certificate of the unpaid registration: the certificates screen lists the
// delegate as waiting for payment, with the amount and the reference, and the day's hours. Staff record the bank
// transfer, and the certificate is e-mailed then; its PDF, read back with pdftotext, names them and carries what a CPD
// body asks for (accreditation, category, venue, hours per day, ethics hours, signatory, the verify address); its
// verification page (axe) confirms them, the status page lists it, and the certificates screen shows it; a name
// corrected then replaces it.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { recordFullTransfer, signInAt, useBackOfficeData, type StaffAccount } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { onSite, registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite } from '../support/site-server.ts'

const THANDI: StaffAccount = { email: 'thandi@example.com', name: 'Thandi Zulu', role: 'staff', password: 'door keeper at the indaba 2025' }

const browser = useBrowser()

describe('certificates of attendance', () => {
  const backOffice = useBackOfficeData([THANDI])

  it('holds an unpaid delegate’s certificate until the registration is paid, then e-mails one a CPD body accepts, and its page verifies it', async () => {
    const unique = Math.random().toString(36).slice(2, 8)
    const name = `Lerato Mahlangu ${unique}`
    const email = `lerato-${unique}@acme.test`
    const env = { ...backOffice.siteEnv(), FORM_RATE_LIMIT: '0' }

    // Before the event (the tests' 1 March 2025): registered for Legal Opinion Writing (3 and 4 July 2025) at the venue.
    const before = await startSite({ env })
    let statusPath: string
    try {
      const response = await fetch(`${before.baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registrationBody({ delegates: [{ name, position: 'Attorney', email }] })),
      })
      expect(response.status).toBe(201)
      statusPath = new URL(((await response.json()) as RegistrationReceipt).statusUrl).pathname
    } finally {
      await before.stop()
    }

    // The first day, at the door: checked in by search.
    const onTheDay = await startSite({ env: { ...env, SITE_DATE: '2025-07-03T09:00:00+02:00' } })
    try {
      const desk = await openPage(browser(), 'phone')
      await signInAt(desk, onTheDay.baseUrl, '/admin/events/event-legal-opinion/check-in', THANDI)
      await waitForHydration(desk)
      await desk.getByLabel('Name, company or reference').fill(name)
      await desk.keyboard.press('Enter')
      // The search's list has loaded: a check-in made while it loads would be shown over by the list as it was.
      await desk.waitForURL((address) => address.searchParams.get('q') === name)
      await desk.getByRole('button', { name: `Check in ${name}` }).click()
      // On a busy machine the answer may come after the desk stopped waiting: then the check-in is queued and confirmed
      // by its resend a few seconds later.
      await desk.getByText(/Checked in at \d\d:\d\d by Thandi Zulu/).waitFor({ timeout: 30_000 })
      await desk.context().close()
    } finally {
      await onTheDay.stop()
    }

    // Two days after the event: the round holds the certificate of the unpaid registration.
    const after = await startSite({ env: { ...env, SITE_DATE: '2025-07-06T09:00:00+02:00' } })
    try {
      const reference = statusPath.split('/')[2]!
      const staffPage = await openPage(browser(), 'phone')
      await signInAt(staffPage, after.baseUrl, '/admin/events/event-legal-opinion/certificates', THANDI)
      await staffPage.getByRole('heading', { level: 2, name: 'Waiting for payment' }).waitFor()
      const waiting = staffPage.getByRole('row', { name: new RegExp(name) })
      expect(await waiting.innerText()).toMatch(new RegExp(`${reference}\\s+Waiting for payment: R [\\d\\s]+\\.\\d\\d`))
      // Each day's own hours, not one figure for every day.
      await staffPage.getByLabel('Thursday 3 July 2025: 6 hours').waitFor()
      await staffPage.getByLabel('Friday 4 July 2025: 6 hours').waitFor()
      expect(await staffPage.locator('main').innerText()).not.toContain('for every day')
      expect(await accessibilityViolations(staffPage)).toEqual([])
      expect(backOffice.sink().received.some((received) => received.recipients.includes(email) && /certificate/.test(received.parsed.subject ?? ''))).toBe(
        false,
      )

      // Paid after the round ran: the certificate is issued and e-mailed with the payment.
      await recordFullTransfer(staffPage, after.baseUrl, reference, '2025-07-06')
      await staffPage.context().close()
      const mail = await backOffice
        .sink()
        .waitFor((received) => received.recipients.includes(email) && /certificate of attendance/.test(received.parsed.subject ?? ''), 20_000)
      expect(mail.parsed.subject).toBe('Your certificate of attendance: Legal Opinion Writing 2025')
      const attachment = mail.parsed.attachments.find((file) => file.contentType === 'application/pdf')!
      expect(attachment.filename).toMatch(/^certificate-CPD-[A-Z0-9]{4}-[A-Z0-9]{4}\.pdf$/)
      const pdfFile = path.join(backOffice.dataDir(), attachment.filename!)
      writeFileSync(pdfFile, attachment.content)
      const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' })
      expect(text).toContain('Certificate of Attendance')
      expect(text).toContain(name)
      expect(text).toContain('Legal Opinion Writing 2025')
      expect(text).toContain('on 3 July 2025')
      // Day one's sessions, registration, tea and lunch left out: 6¼ hours, rounded down to the half hour.
      expect(text).toContain('CPD hours: 6 hours')
      expect(text).toContain('Hours per day: Thursday 3 July 2025: 6 hours')
      // The ethics session is on the second day, not attended.
      expect(text).toContain('of which ethics: 0 hours')
      expect(text).toContain('at Indaba Hotel, Fourways, Sandton, Johannesburg')
      expect(text).toContain('Accredited by Legal Practice Council (LPC), provider accreditation number LPC-CPD-0000')
      expect(text).toContain('CPD category: Legal practitioners CPD')
      expect(text).toContain('Managing Director (to be named)')
      expect(text).toMatch(/Verify at \S+\/certificates\/CPD-[A-Z0-9]{4}-[A-Z0-9]{4}\n/)
      const number = /Certificate number: (CPD-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(text)![1]!
      execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', pdfFile, path.join(tmpdir(), 'certificate')])

      const verifyUrl = /(\S+\/certificates\/CPD-\S+)/.exec(mail.parsed.text ?? '')![1]!
      const page = await openPage(browser(), 'phone')
      await page.goto(onSite(verifyUrl, after.baseUrl))
      await page.getByRole('heading', { level: 1, name: `Certificate ${number}` }).waitFor()
      await waitForHydration(page)
      const facts = await page.locator('main').innerText()
      expect(facts).toContain('This certificate of attendance is valid.')
      expect(facts).toContain(name)
      expect(facts).toContain('3 July 2025')
      expect(facts).toContain('6 hours')
      expect(facts).toMatch(/Accredited by\s+Legal Practice Council \(LPC\), provider accreditation number LPC-CPD-0000/)
      expect(facts).toMatch(/Hours per day\s+Thursday 3 July 2025: 6 hours/)
      expect(facts).toMatch(/Of which ethics\s+0 hours/)
      expect(await accessibilityViolations(page)).toEqual([])
      const download = await page.request.get(`${after.baseUrl}/certificates/${number}/certificate.pdf`)
      expect(download.headers()['content-type']).toBe('application/pdf')
      expect((await page.request.get(`${after.baseUrl}/certificates/CPD-2222-2222`)).status()).toBe(404)

      await page.goto(`${after.baseUrl}${statusPath}`)
      await page.getByRole('heading', { name: 'Certificates of attendance' }).waitFor()
      await page.getByRole('link', { name: `Verify certificate ${number}` }).waitFor()
      await page.context().close()

      const desk = await openPage(browser(), 'desktop')
      await signInAt(desk, after.baseUrl, '/admin/events/event-legal-opinion/certificates', THANDI)
      await desk.getByRole('heading', { level: 1, name: 'Certificates: Legal Opinion Writing 2025' }).waitFor()
      await desk
        .getByRole('row', { name: new RegExp(number) })
        .getByText('Valid')
        .waitFor()
      expect(await accessibilityViolations(desk)).toEqual([])

      // A name corrected after the event replaces the certificate: a new one is e-mailed, the old number names it.
      await desk.goto(`${after.baseUrl}/admin/registrations/${reference}/delegates/1`)
      await desk.getByLabel('Name').fill(`${name} Dube`)
      await desk.getByRole('button', { name: 'Save the delegate' }).click()
      const replacement = await backOffice
        .sink()
        .waitFor((received) => received.recipients.includes(email) && (received.parsed.text ?? '').includes(`Dear ${name} Dube,`), 20_000)
      const newNumber = /Certificate number: (CPD-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(replacement.parsed.text ?? '')![1]!
      expect(newNumber).not.toBe(number)
      await desk.goto(onSite(verifyUrl, after.baseUrl))
      await desk.getByText(`This certificate was replaced by ${newNumber}.`).waitFor()
      await desk.context().close()
    } finally {
      await after.stop()
    }
  })
})
