// The last seats of a room, wanted by many buyers at once through POST /api/registrations: on SQLite (one site) and on
// PostgreSQL (two sites sharing the database, the requests spread over both), exactly as many registrations are
// stored as there were seats, every other buyer is told the event is sold out, and nothing else is written for them.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir, userInfo } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const CAPACITY = 8
const FIRST_DELEGATES = 3
const BUYERS = 50
const LAST_SEATS = CAPACITY - FIRST_DELEGATES

const BACKENDS = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])] as const

interface Answer {
  status: number
  body: { reference?: string; error?: { code: string; message: string; fields: Record<string, string> } }
}

const oneDelegate = (n: number) => [{ name: `Buyer ${n}`, position: 'Attorney', email: `buyer-${n}-${Math.random().toString(36).slice(2, 8)}@acme.test` }]

async function register(baseUrl: string, overrides: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody(overrides)),
  })
  return { status: response.status, body: (await response.json()) as Answer['body'] }
}

describe.each(BACKENDS)('the last seats on %s', (backend) => {
  let workDir: string
  const sites: RunningSite[] = []
  let count: (table: string) => Promise<number>
  let close: () => Promise<void> = async () => undefined

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'seats-'))
    await cp(path.join(repoRoot, 'packages/content/dataset'), path.join(workDir, 'content'), { recursive: true })
    const datasetPath = path.join(workDir, 'content', 'production.ndjson')
    const documents = (await readFile(datasetPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    for (const document of documents) if (document._id === 'event-legal-opinion') document.venueCapacity = CAPACITY
    await writeFile(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
    const env = { CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' }

    if (backend === 'sqlite') {
      const dataDir = path.join(workDir, 'data')
      sites.push(await startSite({ env: { ...env, DATA_DIR: dataDir } }))
      count = async (table) => {
        const db = new DatabaseSync(path.join(dataDir, 'events.sqlite'), { readOnly: true })
        try {
          return Number((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n)
        } finally {
          db.close()
        }
      }
      return
    }

    const databaseUrl = process.env.TEST_DATABASE_URL!
    const target = new URL(databaseUrl)
    const schema = `site_seats_${Date.now().toString(36)}`
    const admin = new pg.Client({
      host: target.hostname || '127.0.0.1',
      port: Number(target.port || 5432),
      database: decodeURIComponent(target.pathname.slice(1)),
      user: decodeURIComponent(target.username) || process.env.PGUSER || userInfo().username,
      password: decodeURIComponent(target.password) || undefined,
    })
    await admin.connect()
    await admin.query(`create schema "${schema}"`)
    const siteUrl = new URL(databaseUrl)
    siteUrl.searchParams.set('options', `-c search_path=${schema}`)
    // One after the other: the first creates the tables. Three instances of ten connections each, as deployed: about 17
    // buyers an instance wait their turn for a connection and for the seats' lock, and each gets an answer.
    for (let instance = 0; instance < 3; instance++) sites.push(await startSite({ env: { ...env, DATABASE_URL: siteUrl.toString(), DATABASE_POOL_MAX: '10' } }))
    await admin.query(`set search_path to "${schema}"`)
    count = async (table) => Number((await admin.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n)
    close = async () => {
      await admin.query(`drop schema if exists "${schema}" cascade`)
      await admin.end()
    }
  })

  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()))
    await close()
    await rm(workDir, { recursive: true, force: true })
  })

  it(`stores exactly ${LAST_SEATS} of ${BUYERS} concurrent registrations for the last ${LAST_SEATS} seats; the others are told it is sold out`, async () => {
    const first = await register(sites[0]!.baseUrl, { delegates: [1, 2, 3].flatMap(oneDelegate) })
    expect(first.status).toBe(201)

    // Asking for more seats than are left is refused whole, saying how many are left.
    const tooMany = await register(sites[0]!.baseUrl, { delegates: [4, 5, 6, 7, 8, 9].flatMap(oneDelegate) })
    expect(tooMany).toEqual({
      status: 409,
      body: {
        error: {
          code: 'sold-out',
          message: 'Sorry, only 5 seats are left at the venue; this registration needs 6. Please register fewer delegates.',
          fields: { attendanceOption: 'Sorry, only 5 seats are left at the venue; this registration needs 6. Please register fewer delegates.' },
        },
      },
    })
    const before = {
      registrations: await count('registrations'),
      outbox: await count('outbox_messages'),
      invoices: await count('invoices'),
      keys: await count('submission_keys'),
    }
    expect(before.registrations).toBe(1)

    const started = performance.now()
    const answers = await Promise.all(
      Array.from({ length: BUYERS }, (_, index) => register(sites[index % sites.length]!.baseUrl, { delegates: oneDelegate(100 + index) })),
    )
    const elapsedMs = performance.now() - started
    const accepted = answers.filter((answer) => answer.status === 201)
    const refused = answers.filter((answer) => answer.status === 409)
    console.log(
      `${backend}: ${BUYERS} concurrent registrations on ${sites.length} process(es) for ${LAST_SEATS} seats: ${accepted.length} stored, ${refused.length} sold out, in ${Math.round(elapsedMs)} ms`,
    )

    expect(accepted).toHaveLength(LAST_SEATS)
    expect(refused).toHaveLength(BUYERS - LAST_SEATS)
    for (const answer of refused) {
      expect(answer.body).toEqual({
        error: {
          code: 'sold-out',
          message: 'Sorry, this event is sold out at the venue.',
          fields: { attendanceOption: 'Sorry, this event is sold out at the venue.' },
        },
      })
    }
    // The refused buyers left nothing behind: no registration, e-mail, invoice or submission key.
    expect(await count('registrations')).toBe(before.registrations + LAST_SEATS)
    expect(await count('registration_delegates')).toBe(FIRST_DELEGATES + LAST_SEATS)
    expect(await count('invoices')).toBe(before.invoices + LAST_SEATS)
    expect(await count('submission_keys')).toBe(before.keys + LAST_SEATS)
    expect(await count('outbox_messages')).toBeGreaterThan(before.outbox)
    expect(await count('outbox_messages where source_id not in (select id from registrations)')).toBe(0)

    // Online places have no limit on this event: online buyers are still welcome.
    expect((await register(sites.at(-1)!.baseUrl, { attendanceOption: 'online', delegates: oneDelegate(999) })).status).toBe(201)
  })
})
