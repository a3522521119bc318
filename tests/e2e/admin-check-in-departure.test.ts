// A departure before the day ends shortens the certificate, in Chromium at 390 px against the real site on SQLite:
// two delegates registered before the event (their registration paid that morning) are checked in on its first day;
// at 10:40, during tea, staff record on
// the desk that one of them left; after the event the certificates' round e-mails both, and their PDFs (read with
// pdftotext) give the one who left only the session before tea (2 hours) and the other the whole day (6 hours).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { recordFullTransfer, signInAt, useBackOfficeData, type StaffAccount } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite } from '../support/site-server.ts'

const THANDI: StaffAccount = { email: 'thandi@example.com', name: 'Thandi Zulu', role: 'staff', password: 'door keeper at the indaba 2025' }

const browser = useBrowser()

describe('leaving early', () => {
  const backOffice = useBackOfficeData([THANDI])

  it('records a departure on the desk, once, and the certificate counts only the sessions before it', async () => {
    const unique = Math.random().toString(36).slice(2, 8)
    const [leaver, stayer] = ['Palesa Radebe', 'Johan Pretorius'].map((name, index) => ({
      name: `${name} ${unique}`,
      position: 'Attorney',
      email: `leaving-${index}-${unique}@acme.test`,
    })) as [{ name: string; position: string; email: string }, { name: string; position: string; email: string }]
    const env = { ...backOffice.siteEnv(), FORM_RATE_LIMIT: '0' }

    const before = await startSite({ env })
    let reference: string
    try {
      const response = await fetch(`${before.baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registrationBody({ delegates: [leaver, stayer] })),
      })
      expect(response.status).toBe(201)
      reference = ((await response.json()) as RegistrationReceipt).reference
    } finally {
      await before.stop()
    }

    // The first day, during tea (10:30–10:45): both are in; one of them leaves.
    const atTea = await startSite({ env: { ...env, SITE_DATE: '2025-07-03T10:40:00+02:00' } })
    try {
      const desk = await openPage(browser(), 'phone')
      // Paid: the event holds the certificates of a registration until it is paid in full.
      await signInAt(desk, atTea.baseUrl, `/admin/registrations/${reference}`, THANDI)
      await recordFullTransfer(desk, atTea.baseUrl, reference, '2025-07-03')
      await desk.goto(`${atTea.baseUrl}/admin/events/event-legal-opinion/check-in`)
      await waitForHydration(desk)
      await desk.getByLabel('Name, company or reference').fill(unique)
      await desk.keyboard.press('Enter')
      for (const delegate of [leaver, stayer]) {
        await desk.getByRole('button', { name: `Check in ${delegate.name}` }).click()
        await desk.getByRole('button', { name: `${delegate.name} left early` }).waitFor()
      }
      await desk.getByRole('button', { name: `${leaver.name} left early` }).click()
      await desk.locator('.check-in-answer').getByText(`${leaver.name} left at 10:40: the certificate counts the sessions before.`).waitFor()
      await desk.getByText('Left at 10:40 (recorded by Thandi Zulu)').waitFor()
      expect(await desk.getByRole('button', { name: `${leaver.name} left early` }).count()).toBe(0)
      // Recorded once: the same departure posted again is refused, saying when and by whom.
      const again = await desk.request.post(`${atTea.baseUrl}/admin/events/event-legal-opinion/check-in/live`, {
        form: {
          intent: 'leave',
          day: '2025-07-03',
          delegateId: await desk
            .getByRole('button', { name: `Undo the check-in of ${leaver.name}` })
            .evaluate((button) => (button.closest('form')!.elements.namedItem('delegateId') as HTMLInputElement).value),
        },
        headers: { Origin: atTea.baseUrl, Accept: 'application/json' },
      })
      expect(again.status()).toBe(409)
      expect(((await again.json()) as { message: string }).message).toBe(`${leaver.name}: already recorded as leaving at 10:40 by Thandi Zulu.`)
      await desk.context().close()
    } finally {
      await atTea.stop()
    }

    // Two days after the event: the round issues both certificates as the site starts.
    const after = await startSite({ env: { ...env, SITE_DATE: '2025-07-06T09:00:00+02:00' } })
    try {
      const hours = async (email: string) => {
        const mail = await backOffice
          .sink()
          .waitFor((received) => received.recipients.includes(email) && /certificate of attendance/.test(received.parsed.subject ?? ''), 20_000)
        const attachment = mail.parsed.attachments.find((file) => file.contentType === 'application/pdf')!
        const pdfFile = path.join(backOffice.dataDir(), attachment.filename!)
        writeFileSync(pdfFile, attachment.content)
        return /CPD hours: ([\d.]+ hours?)/.exec(execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' }))![1]
      }
      // The session before tea (08:30–10:30) for the one who left; the day's 6¼ hours, rounded down, for the other.
      expect(await hours(leaver.email)).toBe('2 hours')
      expect(await hours(stayer.email)).toBe('6 hours')
    } finally {
      await after.stop()
    }
  })
})
