// The site renders whatever the dataset holds. Each row breaks the shipped dataset the way a click in the Studio, a
// dataset copy or a partial import can (a deleted speaker that seven documents refer to, a missing field, a value of
// the wrong shape), then every public route and event tab must answer 200 without the broken part, the Register tab
// must still take a registration, and the site must log a warning naming the document.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { contentPages, eventPages } from '../support/routes.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

type Doc = Record<string, unknown> & { _id: string; _type: string }

interface Breakage {
  name: string
  /** Changes the dataset's documents in place (and may remove some). */
  breakDataset(docs: Doc[]): Doc[]
  /** What must be missing from the pages afterwards (text of the broken part). */
  absent?: { path: string; text: string }
  /** What must still be there, to show the rest of the page was kept. */
  present?: { path: string; text: string }
  /** The document the warning must name: the one holding the broken part (an event naming a deleted speaker). */
  warnsAbout: string
}

const byId = (docs: Doc[], id: string): Doc => {
  const doc = docs.find((candidate) => candidate._id === id)
  if (!doc) throw new Error(`The shipped dataset has no document ${id}`)
  return doc
}
const resilience = (docs: Doc[]) => docs.find((doc) => doc._type === 'event' && (doc.slug as { current: string }).current === 'Resilience')!

const breakages: Breakage[] = [
  {
    name: 'a speaker deleted while the flagship and its sessions refer to it',
    breakDataset: (docs) => docs.filter((doc) => doc._id !== 'speaker-resilience-05'),
    absent: { path: '/conference/Resilience?tab=speakers', text: 'Lerato Molefe' },
    present: { path: '/conference/Resilience?tab=agenda', text: 'Welcome and opening remarks' },
    warnsAbout: 'event-resilience',
  },
  {
    name: 'a sponsor package deleted while events refer to it',
    breakDataset: (docs) => docs.filter((doc) => doc._id !== 'sponsor-gold'),
    absent: { path: '/conference/Resilience?tab=sponsor', text: 'Gold' },
    present: { path: '/conference/Resilience?tab=sponsor', text: 'Platinum' },
    warnsAbout: 'event-resilience',
  },
  {
    name: 'an event without its venue, summary, card, overview or tabs',
    breakDataset: (docs) => {
      const event = resilience(docs)
      for (const field of ['venue', 'summary', 'card', 'overview', 'tabs', 'format']) delete event[field]
      return docs
    },
    present: { path: '/conference/Resilience', text: 'Resilience' },
    warnsAbout: 'event-resilience',
  },
  {
    name: 'an event whose arrays hold values of the wrong shape',
    breakDataset: (docs) => {
      const event = resilience(docs)
      event.speakers = 'speaker-resilience-01'
      event.participatingCompanies = [null, { _key: 'logo-without-asset' }]
      event.sponsorPackages = [{ _key: 'not-a-reference' }, null]
      const days = event.agendaDays as Array<{ sessions: unknown[] }>
      days[0]!.sessions = [null, { _key: 'session-without-title', start: '08:00' }, ...days[0]!.sessions.slice(2)]
      days.push({ _key: 'day-without-date', sessions: 'none' } as never)
      return docs
    },
    present: { path: '/conference/Resilience?tab=agenda', text: 'Resilience' },
    warnsAbout: 'event-resilience',
  },
  {
    name: 'a price option without an amount beside good ones',
    breakDataset: (docs) => {
      const options = resilience(docs).priceOptions as Array<Record<string, unknown>>
      delete options.find((option) => option.key === 'online')!.amount
      options.push(null as never)
      return docs
    },
    absent: { path: '/conference/Resilience?tab=register', text: 'R NaN' },
    present: { path: '/conference/Resilience?tab=register', text: '8 490' },
    warnsAbout: 'event-resilience',
  },
  {
    name: 'pages, divisions and settings missing parts',
    breakDataset: (docs) => {
      const settings = byId(docs, 'siteSettings')
      for (const field of ['socialLinks', 'addresses', 'phones', 'bankDetails', 'registrationNumbers']) delete settings[field]
      settings.registrationNumbers = [null, { _key: 'number-without-value', label: 'CSD' }]
      for (const page of docs.filter((doc) => doc._type === 'page')) {
        page.sections = [null, { _key: 'section-without-heading' }, ...((page.sections as unknown[] | undefined) ?? [])]
        page.cards = 'cards'
        page.statistics = [{ _key: 'statistic-without-value', label: 'Delegates' }]
      }
      for (const division of docs.filter((doc) => doc._type === 'division')) delete division.title
      return docs
    },
    present: { path: '/', text: 'Summit Business Events' },
    warnsAbout: 'siteSettings',
  },
]

/** Every public route, and every tab of every event page. */
const routes = [
  ...contentPages,
  ...eventPages.flatMap((event) => ['overview', 'agenda', 'speakers', 'register', 'sponsor'].map((tab) => `${event}?tab=${tab}`)),
  '/sitemap.xml',
]

let workDir: string
let shipped: Doc[]

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'broken-content-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), path.join(workDir, 'content'), { recursive: true })
  const text = await readFile(path.join(workDir, 'content', 'production.ndjson'), 'utf8')
  shipped = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Doc)
})

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

describe.each(breakages)('with $name', (breakage) => {
  let site: RunningSite

  beforeAll(async () => {
    const datasetPath = path.join(workDir, 'content', `${breakage.warnsAbout}-${breakages.indexOf(breakage)}.ndjson`)
    const docs = breakage.breakDataset(structuredClone(shipped))
    await writeFile(datasetPath, docs.map((doc) => JSON.stringify(doc)).join('\n') + '\n')
    site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' }, keepOutput: true })
  })

  afterAll(async () => {
    await site?.stop()
  })

  it('answers 200 on every public route and event tab', async () => {
    const failures: string[] = []
    for (const route of routes) {
      const response = await fetch(`${site.baseUrl}${route}`)
      if (response.status !== 200) failures.push(`${route}: ${response.status}`)
      await response.arrayBuffer()
    }
    expect(failures).toEqual([])
  })

  it('leaves out the broken part and keeps the rest', async () => {
    if (breakage.absent) {
      const response = await fetch(`${site.baseUrl}${breakage.absent.path}`)
      expect(response.status).toBe(200)
      expect((await response.text()).includes(breakage.absent.text), `${breakage.absent.path} shows ${breakage.absent.text}`).toBe(false)
    }
    if (breakage.present) {
      const response = await fetch(`${site.baseUrl}${breakage.present.path}`)
      expect(response.status).toBe(200)
      expect((await response.text()).includes(breakage.present.text), `${breakage.present.path} lacks ${breakage.present.text}`).toBe(true)
    }
  })

  it('still takes a registration for the flagship', async () => {
    const response = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'venue' })),
    })
    expect(response.status).toBe(201)
  })

  it('logs a warning that names the broken document, and no error', async () => {
    const logLines = () =>
      site
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
    await expect.poll(() => logLines().some((line) => line.includes('"level":40') && line.includes(breakage.warnsAbout))).toBe(true)
    // (A starting site answers /readyz 503 until it is ready; that line is not about content.)
    const errors = logLines().filter((line) => line.includes('"level":50') && !line.includes('"url":"/readyz"'))
    expect(errors.map((line) => line.slice(0, 400))).toEqual([])
  })
})
