// An editor renames a published event's slug while the site runs, as the studio's Publish leaves it: the event under
// its new slug and a redirect document from the old page. Registrations name their event by document id, so one made
// before the rename stays listed under the event in the back office, beside those made after it, including one
// posted to the old slug (a form loaded before the rename).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createStaffAccount, signInCookie, type StaffAccount } from '../support/admin.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const STAFF: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a long enough staff password' }
const OLD_SLUG = 'legalOpinion'
const NEW_SLUG = 'legal-opinion-writing'

let workDir: string
let datasetPath: string
let site: RunningSite
let cookie: string

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'registrations-after-rename-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), path.join(workDir, 'content'), { recursive: true })
  datasetPath = path.join(workDir, 'content', 'production.ndjson')
  const dataDir = path.join(workDir, 'data')
  await createStaffAccount(dataDir, STAFF)
  site = await startSite({ env: { DATA_DIR: dataDir, CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' } })
  cookie = await signInCookie(site.baseUrl, STAFF)
})

afterAll(async () => {
  await site?.stop()
  await rm(workDir, { recursive: true, force: true })
})

async function register(event: string): Promise<string> {
  const response = await fetch(`${site.baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody({ event })),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as RegistrationReceipt).reference
}

async function backOfficeText(pathname: string): Promise<string> {
  const response = await fetch(`${site.baseUrl}${pathname}`, { headers: { cookie } })
  expect(response.status).toBe(200)
  return response.text()
}

/** The Register tab's form as a browser without JavaScript posts it to the event page it was loaded from. */
async function registerWithForm(slug: string): Promise<string> {
  const unique = Math.random().toString(36).slice(2, 8)
  const response = await fetch(`${site.baseUrl}/workshop/${slug}?tab=register`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({
      token: `form-${unique}`,
      intent: 'submit',
      code: 'LOW2025',
      companyName: `Form Posting ${unique}`,
      address: '2 Side Street, Midrand',
      email: `form-${unique}@posting.test`,
      tel: '+27 11 555 0199',
      vatNumber: '4999999999',
      'delegates.0.name': 'Lindiwe Zulu',
      'delegates.0.position': 'Office Manager',
      'delegates.0.email': `lindiwe-${unique}@posting.test`,
      attendanceOption: 'online',
      paymentMethod: 'bank-transfer',
      legalAgreement: 'on',
    }),
  })
  expect(response.status).toBe(303)
  const reference = /^\/registrations\/([A-Z0-9]+)\//.exec(response.headers.get('location') ?? '')?.[1]
  expect(reference).toBeDefined()
  return reference!
}

/** Renames the event in the dataset the site serves, with the redirect the studio writes, as Publish does. */
async function renameEvent(): Promise<void> {
  const shipped = await readFile(datasetPath, 'utf8')
  const renamed = shipped.replace(`"slug":{"_type":"slug","current":"${OLD_SLUG}"}`, `"slug":{"_type":"slug","current":"${NEW_SLUG}"}`)
  expect(renamed).not.toBe(shipped)
  const redirect = { _id: 'redirect-legal-opinion', _type: 'redirect', from: `/workshop/${OLD_SLUG}`, to: `/workshop/${NEW_SLUG}` }
  await writeFile(datasetPath, `${renamed.trimEnd()}\n${JSON.stringify(redirect)}\n`)
  // The site watches its dataset file: the event is served at its new address once it has read the change.
  await vi.waitFor(async () => expect((await fetch(`${site.baseUrl}/workshop/${NEW_SLUG}`, { redirect: 'manual' })).status).toBe(200), {
    timeout: 20_000,
    interval: 200,
  })
}

describe('registrations across a slug rename', () => {
  it('keeps the registrations made before and after the rename, and those sent to the old slug, under the one event', async () => {
    const before = await register(OLD_SLUG)
    await renameEvent()
    const toOldSlug = await register(OLD_SLUG)
    const formLoadedBefore = await registerWithForm(OLD_SLUG)
    const after = await register(NEW_SLUG)

    const list = await backOfficeText('/admin/registrations?event=event-legal-opinion')
    for (const reference of [before, toOldSlug, formLoadedBefore, after]) expect(list).toContain(reference)

    // The events screen shows the event once, as its newest registration has it, linking its lists by document id.
    const events = await backOfficeText('/admin/events')
    expect(events.match(/\/delegates\.csv/g)).toHaveLength(1)
    expect(events).toContain('/admin/events/event-legal-opinion/delegates.csv')
    expect(events).not.toContain(`/admin/events/${OLD_SLUG}/`)

    const csv = await backOfficeText('/admin/events/event-legal-opinion/delegates.csv')
    for (const reference of [before, toOldSlug, formLoadedBefore, after]) expect(csv).toContain(reference)

    const dashboard = await backOfficeText('/admin')
    expect(dashboard).toContain('/admin/registrations?event=event-legal-opinion')
    expect(dashboard.match(/registrations\?event=/g)).toHaveLength(1)
  })
})
