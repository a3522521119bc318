// A message to an event's delegates against the real site and its SMTP sink: written in the back office, previewed with
// one delegate's name, sent with filters, it reaches only the delegates chosen and is listed in the event's log and on
// each registration.
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const THANDI: StaffAccount = { email: 'thandi@example.com', name: 'Thandi Zulu', role: 'staff', password: 'door keeper at the indaba 2025' }

const browser = useBrowser()

describe('messages to delegates', () => {
  const { site, sink } = useBackOfficeSite([THANDI], { FORM_RATE_LIMIT: '0' })

  it('previews a message with one delegate’s name and sends it to only the delegates the filters choose', async () => {
    const unique = Math.random().toString(36).slice(2, 8)
    const receipts: RegistrationReceipt[] = []
    for (const [attendanceOption, name] of [
      ['venue', 'Naledi Venue'],
      ['online', 'Refilwe Online'],
    ] as const) {
      const response = await fetch(`${site().baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          registrationBody({
            attendanceOption,
            delegates: [{ name: `${name} ${unique}`, position: 'Attorney', email: `${attendanceOption}-${unique}@acme.test` }],
          }),
        ),
      })
      expect(response.status).toBe(201)
      receipts.push((await response.json()) as RegistrationReceipt)
    }

    const page = await openPage(browser(), 'desktop')
    await signInAt(page, site().baseUrl, '/admin/events', THANDI)
    await waitForHydration(page)
    await page.getByRole('link', { name: 'Messages to delegates of Legal Opinion Writing 2025' }).click()
    await page.getByRole('heading', { level: 1, name: 'Messages to delegates: Legal Opinion Writing 2025' }).waitFor()
    await waitForHydration(page)
    await page.getByLabel('Subject', { exact: true }).fill(`Your link for tomorrow, {name} ${unique}`)
    await page.getByLabel('Message', { exact: true }).fill('Dear {name},\nThe online session starts at 09:00 sharp.')
    await page.getByLabel('Attendance').selectOption('online')
    await page.getByRole('button', { name: 'Preview' }).click()
    await page.getByText('This message goes to 1 delegate.').waitFor()
    await page.getByText(`As Refilwe Online ${unique} receives it`).waitFor()
    await page.getByText(`Dear Refilwe Online ${unique},`).waitFor()
    expect(await accessibilityViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Send to 1 delegate' }).click()
    await page.getByRole('status').getByText('The message is queued to 1 delegate.').waitFor()
    await page
      .getByRole('table', { name: /Messages sent to the delegates/ })
      .getByText(`Your link for tomorrow, {name} ${unique}`)
      .waitFor()

    const mail = await sink().waitFor((received) => received.parsed.subject === `Your link for tomorrow, Refilwe Online ${unique} ${unique}`)
    expect(mail.recipients).toEqual([`online-${unique}@acme.test`])
    expect(mail.parsed.text).toContain(`Dear Refilwe Online ${unique},\nThe online session starts at 09:00 sharp.`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(
      sink().received.filter(
        (received) => received.parsed.subject?.startsWith('Your link for tomorrow') && received.recipients.includes(`venue-${unique}@acme.test`),
      ),
    ).toEqual([])

    await page.goto(`${site().baseUrl}/admin/registrations/${receipts[1]!.reference}`)
    await page.getByText(`Your link for tomorrow, Refilwe Online ${unique} ${unique}`).waitFor()
    await page.context().close()
  })

  it('without JavaScript, sends only to the number of delegates confirmed, and asks again when a registration came in since the preview', async () => {
    const unique = Math.random().toString(36).slice(2, 8)
    const register = async (name: string) => {
      const response = await fetch(`${site().baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          registrationBody({
            attendanceOption: 'venue',
            delegates: [{ name, position: 'Attorney', email: `${name.split(' ')[0]!.toLowerCase()}-${unique}@acme.test` }],
          }),
        ),
      })
      expect(response.status).toBe(201)
    }
    await register(`Sipho ${unique}`)

    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await signInAt(page, site().baseUrl, '/admin/events', THANDI)
    await page.getByRole('link', { name: 'Messages to delegates of Legal Opinion Writing 2025' }).click()
    await page.getByLabel('Subject', { exact: true }).fill(`Parking ${unique}`)
    await page.getByLabel('Message', { exact: true }).fill('Dear {name},\nPark in bay B.')
    await page.getByLabel('Attendance').selectOption('venue')
    await page.getByRole('button', { name: 'Preview' }).click()
    const previewed = await page.getByText(/^This message goes to \d+ delegates?\.$/).textContent()
    const confirmed = Number(/\d+/.exec(previewed ?? '')![0])
    expect(confirmed).toBeGreaterThanOrEqual(1)

    await register(`Ayanda ${unique}`)
    await page.getByRole('button', { name: `Send to ${confirmed} ${confirmed === 1 ? 'delegate' : 'delegates'}` }).click()
    await page
      .getByText(
        `The message now goes to ${confirmed + 1} delegates, not the ${confirmed} ${confirmed === 1 ? 'delegate' : 'delegates'} you confirmed: nothing was sent.`,
        { exact: false },
      )
      .first()
      .waitFor()
    await page.getByText(`This message goes to ${confirmed + 1} delegates.`).waitFor()
    expect(sink().received.filter((received) => received.parsed.subject === `Parking ${unique}`)).toEqual([])

    await page.getByRole('button', { name: `Send to ${confirmed + 1} delegates` }).click()
    await page
      .getByRole('status')
      .getByText(`The message is queued to ${confirmed + 1} delegates.`)
      .waitFor()
    await sink().waitFor((received) => received.parsed.subject === `Parking ${unique}` && received.recipients.includes(`ayanda-${unique}@acme.test`))
    await page.context().close()
  })
})
