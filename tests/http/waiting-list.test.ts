// POST /api/waiting-list: a place on a sold-out event's waiting list, refused while seats are free (register instead),
// validated like the other forms with the same error body, rate-limited like every public POST, and confirmed by e-mail.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

let workDir: string
let site: RunningSite
let sink: SmtpSink
let nextAddress = 0

const freshAddress = () => `198.51.100.${++nextAddress}`

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'waiting-list-http-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  const datasetPath = path.join(workDir, 'production.ndjson')
  const documents = (await readFile(datasetPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const document of documents) if (document._id === 'event-legal-opinion') Object.assign(document, { venueCapacity: 2, onlineCapacity: 1 })
  await writeFile(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  sink = await startSmtpSink()
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, SMTP_URL: sink.url, FORM_RATE_LIMIT: '5' } })
})

afterAll(async () => {
  await site?.stop()
  await sink?.stop()
  await rm(workDir, { recursive: true, force: true })
})

interface Answer {
  status: number
  json: { position?: number; error?: { code: string; message: string; fields: Record<string, string> } }
}

async function post(pathname: string, body: unknown, address = freshAddress()): Promise<Answer> {
  const response = await fetch(`${site.baseUrl}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as Answer['json'] }
}

const entry = (overrides: Record<string, unknown> = {}) => ({
  event: 'legalOpinion',
  name: 'Thandi Mokoena',
  companyName: 'Acme Legal',
  email: 'thandi@acme.test',
  tel: '011 555 0100',
  seats: 2,
  attendance: 'venue',
  ...overrides,
})

describe('POST /api/waiting-list', () => {
  it('sends a visitor to register while seats are free, then takes their place once the event is sold out', async () => {
    const early = await post('/api/waiting-list', entry({ seats: 1 }))
    expect(early.status).toBe(409)
    expect(early.json.error).toEqual({
      code: 'not-sold-out',
      message: '2 seats are still free at the venue: please register instead of joining the waiting list.',
      fields: { attendance: '2 seats are still free at the venue: please register instead of joining the waiting list.' },
    })

    expect((await post('/api/registrations', registrationBody())).status).toBe(201)
    expect(
      (
        await post(
          '/api/registrations',
          registrationBody({ attendanceOption: 'online', delegates: [{ name: 'Online One', position: 'Attorney', email: 'online@acme.test' }] }),
        )
      ).status,
    ).toBe(201)

    const refused = await post('/api/waiting-list', entry({ seats: 11, email: 'not an address', name: '' }))
    expect(refused.status).toBe(422)
    expect(refused.json.error).toEqual({
      code: 'missing-fields',
      message: 'Please fill in all required fields before submitting.',
      fields: {
        name: 'Name is required',
        email: 'Please enter a valid e-mail address.',
        seats: 'Please enter the number of seats: a whole number from 1 to 10.',
      },
    })
    expect((await post('/api/waiting-list', entry({ event: 'noSuchEvent' }))).json.error?.code).toBe('unknown-event')

    const joined = await post('/api/waiting-list', entry())
    expect(joined).toEqual({ status: 201, json: { position: 1 } })
    expect(await post('/api/waiting-list', entry({ attendance: 'online', seats: 1, email: 'online-wait@acme.test' }))).toEqual({
      status: 201,
      json: { position: 2 },
    })
    const mail = await sink.waitFor((message) => message.recipients.includes('thandi@acme.test'))
    expect(mail.parsed.subject).toBe('Waiting list: Legal Opinion Writing 2025')
    expect(mail.parsed.text).toContain('You are number 1 on the waiting list')
  })

  it('is rate-limited like every public POST, and answers other methods 405', async () => {
    const address = freshAddress()
    const statuses: number[] = []
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await post('/api/waiting-list', entry({ name: '' }), address)).status)
    expect(statuses.slice(0, 5).every((status) => status === 422)).toBe(true)
    expect(statuses[5]).toBe(429)
    const get = await fetch(`${site.baseUrl}/api/waiting-list`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })
})
