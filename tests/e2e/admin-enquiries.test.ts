// The enquiries inbox in Chromium against the real site: an enquiry and a training request sent through the JSON API
// are listed; staff set a status and an assignee, add a note and reply, and the reply reaches a real SMTP server
// from the organiser's address. The same inbox is then used without JavaScript.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'

const ORGANISER = 'events@organiser.test'
const LERATO: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Staff', role: 'staff', password: 'a long enough staff password' }
const PIETER: StaffAccount = { email: 'pieter@example.com', name: 'Pieter Botha', role: 'staff', password: 'another long staff password' }

const browser = useBrowser()
const { site, sink, url } = useBackOfficeSite([LERATO, PIETER], { ORGANISER_EMAIL: ORGANISER })

async function post(pathname: string, body: Record<string, string>): Promise<void> {
  const response = await fetch(url(pathname), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(201)
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page), `axe on ${page.url()}`).toEqual([])
}

describe('the enquiries inbox', () => {
  it('lists enquiries and training requests; staff assign one, note it and reply from the organiser’s address', async () => {
    await post('/api/contact', {
      fullName: 'Naledi Dlamini',
      companyName: 'Dlamini Holdings',
      email: 'naledi@client.test',
      phone: '+27 82 555 0101',
      interest: 'Sponsership',
      message: 'We would like to sponsor the PFAS conference.',
    })
    await post('/api/training-requests', {
      kind: 'inhouse',
      name: 'Sipho Mokoena',
      email: 'sipho@client.test',
      phone: '+27 11 555 0102',
      organization: 'City of Example',
      message: 'Board governance for 20 people',
    })

    const page = await openPage(browser(), 'phone')
    await signInAt(page, site().baseUrl, '/admin/enquiries', LERATO)
    await waitForHydration(page)
    const inbox = page.getByRole('region', { name: 'Enquiries' })
    await inbox.getByRole('row', { name: /Sipho Mokoena, City of Example\s+In-house training request\s+New\s+Nobody/ }).waitFor()
    await inbox.getByRole('row', { name: /Naledi Dlamini, Dlamini Holdings\s+Contact form: Sponsorship\s+New\s+Nobody/ }).waitFor()
    await expectAccessible(page)

    await page.getByRole('link', { name: 'Naledi Dlamini' }).click()
    await page.getByRole('heading', { name: 'Contact form from Naledi Dlamini', level: 1 }).waitFor()
    await waitForHydration(page)
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'In progress' })
    await page.getByLabel('Assigned to').selectOption({ label: PIETER.name })
    await page.getByRole('button', { name: 'Save status and assignee' }).click()
    await page.getByRole('status').filter({ hasText: 'Status and assignee saved.' }).waitFor()
    await page.getByLabel('Internal note (never sent)').fill('Called her back; wants the Platinum package.')
    await page.getByRole('button', { name: 'Add note' }).click()
    await page.getByRole('listitem').filter({ hasText: 'Called her back; wants the Platinum package.' }).waitFor()
    expect(await page.getByLabel('Internal note (never sent)').inputValue()).toBe('')
    await page.getByLabel('Subject (optional)').fill('Sponsoring the PFAS conference')
    await page.getByLabel('Reply', { exact: true }).fill('Thank you, Naledi. The Platinum package is still open.')
    await page.getByRole('button', { name: 'Send reply' }).click()
    await page.getByRole('status').filter({ hasText: 'Your reply is on its way.' }).waitFor()
    await page.getByText(`Reply “Sponsoring the PFAS conference” by ${LERATO.name}`).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await expectAccessible(page)

    const reply = await sink().waitFor(
      (mail) => mail.recipients.includes('naledi@client.test') && mail.parsed.subject === 'Sponsoring the PFAS conference',
      15_000,
    )
    expect(reply.parsed.from?.value[0]?.address).toBe(ORGANISER)
    expect(reply.parsed.text).toContain('The Platinum package is still open.')
    expect(reply.parsed.text).toContain('> We would like to sponsor the PFAS conference.')
    await page.context().close()

    const noScript = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await signInAt(noScript, site().baseUrl, '/admin/enquiries', LERATO)
    await noScript.getByRole('row', { name: new RegExp(`Naledi Dlamini.*In progress\\s+${PIETER.name}`) }).waitFor()
    await noScript.getByLabel('Show').selectOption({ label: 'New' })
    await noScript.getByRole('button', { name: 'Show' }).click()
    await noScript.waitForURL((address) => address.searchParams.get('status') === 'new')
    expect(await noScript.getByRole('row').count()).toBe(2)
    await noScript.getByRole('link', { name: 'Sipho Mokoena' }).click()
    await noScript.getByLabel('Reply', { exact: true }).fill('We can come to you in May.')
    await noScript.getByRole('button', { name: 'Send reply' }).click()
    expect(await noScript.getByRole('status').innerText()).toBe('Your reply is on its way.')
    const trainingReply = await sink().waitFor(
      (mail) => mail.recipients.includes('sipho@client.test') && mail.parsed.subject?.startsWith('Re: your training request to ') === true,
      15_000,
    )
    expect(trainingReply.parsed.from?.value[0]?.address).toBe(ORGANISER)
    await noScript.getByText(`by ${LERATO.name}`).waitFor()
    await noScript.context().close()
  })

  it('shows the status a reply set at once, and saving the assignee from that box keeps it', async () => {
    await post('/api/contact', {
      fullName: 'Mpho Radebe',
      companyName: 'Radebe Legal',
      email: 'mpho@client.test',
      phone: '+27 82 555 0103',
      interest: 'Conference',
      message: 'Is there a group rate?',
    })
    const page = await openPage(browser(), 'phone')
    await signInAt(page, site().baseUrl, '/admin/enquiries', LERATO)
    await waitForHydration(page)
    await page.getByRole('link', { name: 'Mpho Radebe' }).click()
    await page.getByRole('heading', { name: 'Contact form from Mpho Radebe', level: 1 }).waitFor()
    await waitForHydration(page)
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('new')
    await page.getByLabel('Reply', { exact: true }).fill('Dear Mpho,\n\nYes: five or more delegates get 10% off.')
    await page.getByRole('button', { name: 'Send reply' }).click()
    await page.getByRole('status').filter({ hasText: 'Your reply is on its way.' }).waitFor()
    // Without a reload, the box shows what the reply made of the enquiry.
    await expect.poll(() => page.getByLabel('Status', { exact: true }).inputValue()).toBe('in-progress')

    await page.getByLabel('Assigned to').selectOption({ label: PIETER.name })
    await page.getByRole('button', { name: 'Save status and assignee' }).click()
    await page.getByRole('status').filter({ hasText: 'Status and assignee saved.' }).waitFor()
    await page.reload()
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('in-progress')

    // Staff greeted Mpho themselves: the e-mail has no second greeting.
    const reply = await sink().waitFor(
      (mail) => mail.recipients.includes('mpho@client.test') && mail.parsed.subject?.startsWith('Re: your enquiry') === true,
      15_000,
    )
    expect(reply.parsed.text).toContain('five or more delegates get 10% off.')
    expect(reply.parsed.text!.match(/Dear/g)).toHaveLength(1)
    await page.context().close()
  })
})
