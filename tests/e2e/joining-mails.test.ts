// The joining e-mails against the real site and its SMTP sink: the site restarted with SITE_DATE moved sends each
// delegate theirs at each moment and once only (a venue delegate the venue text and their pass, an online delegate
// their personal join link), and on the event day that link records attendance and opens the meeting.
import { describe, expect, it } from 'vitest'
import { signInAt, useBackOfficeData, type StaffAccount } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { onSite, registrationBody } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import type { ReceivedMail } from '../support/smtp-sink.ts'

const THANDI: StaffAccount = { email: 'thandi@example.com', name: 'Thandi Zulu', role: 'staff', password: 'door keeper at the indaba 2025' }
const VENUE_TEXT = 'Arrive from 07:30; parking in the basement. We start at 08:30.'

const browser = useBrowser()

describe('joining e-mails', () => {
  const backOffice = useBackOfficeData([THANDI])

  /** Runs `use` against the site started on `siteDate` over the same database and SMTP sink, then stops it. */
  async function onDate(siteDate: string | undefined, use: (site: RunningSite) => Promise<void>): Promise<void> {
    const site = await startSite({ env: { ...backOffice.siteEnv(), FORM_RATE_LIMIT: '0', ...(siteDate ? { SITE_DATE: siteDate } : {}) } })
    try {
      await use(site)
    } finally {
      await site.stop()
    }
  }

  const joiningMailsTo = (address: string): ReceivedMail[] =>
    backOffice.sink().received.filter((mail) => mail.recipients.includes(address) && /^(Joining instructions|Tomorrow)/.test(mail.parsed.subject ?? ''))

  it('sends each delegate theirs once at each moment, with a personal link that works on the day', async () => {
    const unique = Math.random().toString(36).slice(2, 8)
    const venue = `venue-${unique}@acme.test`
    const online = `online-${unique}@acme.test`
    // Before the event (the tests' 1 March 2025): a venue and an online registration, and staff write the venue text.
    await onDate(undefined, async (site) => {
      for (const [attendanceOption, email, name] of [
        ['venue', venue, `Naledi Venue ${unique}`],
        ['online', online, `Refilwe Online ${unique}`],
      ] as const) {
        const response = await fetch(`${site.baseUrl}/api/registrations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(registrationBody({ attendanceOption, delegates: [{ name, position: 'Attorney', email }] })),
        })
        expect(response.status).toBe(201)
      }
      const page = await openPage(browser(), 'desktop')
      await signInAt(page, site.baseUrl, '/admin/events/event-legal-opinion/joining', THANDI)
      await waitForHydration(page)
      await page.getByLabel('For the venue: arrival, parking, start time').fill(VENUE_TEXT)
      await page.getByLabel('Meeting link, every day').fill('https://meet.example.com/legal-opinion')
      await page.getByRole('button', { name: 'Save the joining instructions' }).click()
      await page.getByRole('status').getByText('The joining instructions are saved.').waitFor()
      await page.context().close()
      expect(joiningMailsTo(venue)).toEqual([])
    })

    // Three days before the event (3–4 July 2025): the first joining e-mail each.
    await onDate('2025-06-30T09:00:00+02:00', async () => {
      const venueMail = await backOffice
        .sink()
        .waitFor((mail) => mail.recipients.includes(venue) && mail.parsed.subject === 'Joining instructions: Legal Opinion Writing 2025')
      expect(venueMail.parsed.text).toContain(VENUE_TEXT)
      expect(venueMail.parsed.text).toMatch(/pass [A-Z0-9]{4}-[A-Z0-9]{4}, \S+\/pass\//)
      expect(venueMail.parsed.attachments.filter((attachment) => attachment.contentType === 'image/png')).toHaveLength(1)
      const onlineMail = await backOffice
        .sink()
        .waitFor((mail) => mail.recipients.includes(online) && mail.parsed.subject === 'Joining instructions: Legal Opinion Writing 2025')
      expect(onlineMail.parsed.text).toMatch(/\/join\/\S+/)
      expect(onlineMail.parsed.text).not.toContain('Parking')
      expect(onlineMail.parsed.text).not.toContain('meet.example.com')
    })
    // Restarted the same day: nothing sent twice.
    await onDate('2025-06-30T11:00:00+02:00', async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000))
      expect(joiningMailsTo(venue)).toHaveLength(1)
      expect(joiningMailsTo(online)).toHaveLength(1)
    })
    // The day before the first day.
    await onDate('2025-07-02T08:00:00+02:00', async () => {
      await backOffice.sink().waitFor((mail) => mail.recipients.includes(venue) && mail.parsed.subject === 'Tomorrow, 3 July 2025: Legal Opinion Writing 2025')
      await backOffice.sink().waitFor((mail) => mail.recipients.includes(online) && mail.parsed.subject === 'Tomorrow, 3 July 2025: Legal Opinion Writing 2025')
    })
    // The first day, 3 July 2025 at 09:00: the eve of the second day's e-mail, and the personal link from it works.
    await onDate('2025-07-03T09:00:00+02:00', async (site) => {
      const eve = await backOffice
        .sink()
        .waitFor((mail) => mail.recipients.includes(online) && mail.parsed.subject === 'Tomorrow, 4 July 2025: Legal Opinion Writing 2025')
      expect(joiningMailsTo(venue)).toHaveLength(3)
      expect(joiningMailsTo(online)).toHaveLength(3)
      const joinUrl = /(\S+\/join\/\S+)/.exec(eve.parsed.text ?? '')![1]!
      const page = await openPage(browser(), 'phone')
      await page.route('https://meet.example.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Meeting</title><h1>The meeting</h1>' }),
      )
      await page.goto(onSite(joinUrl, site.baseUrl))
      await page.getByText('Joining now records your attendance for today.').waitFor()
      await page.getByRole('button', { name: 'Join the meeting' }).click()
      await page.waitForURL('https://meet.example.com/legal-opinion')
      await page.context().close()
    })
  })
})
