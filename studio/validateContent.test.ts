import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const script = fileURLToPath(new URL('./validateContent.ts', import.meta.url))
let directory: string

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'content-validate-'))
})

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

async function validate(file?: string): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, file === undefined ? [script] : [script, file])
    return { code: 0, lines: stdout.trim().split('\n') }
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string }
    return { code, lines: stdout.trim().split('\n') }
  }
}

async function dataset(name: string, documents: object[]): Promise<string> {
  const file = path.join(directory, `${name}.ndjson`)
  await writeFile(file, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  return file
}

const venue = { _key: 'v', _type: 'priceOption', key: 'venue', label: 'Venue', amount: 8490 }
const event = {
  _id: 'event-x',
  _type: 'event',
  start: '2025-07-23T07:30:00+02:00',
  end: '2025-07-24T16:00:00+02:00',
  tabs: ['overview', 'register'],
  priceOptions: [venue],
}

describe('pnpm content:validate', () => {
  it('passes the shipped dataset', async () => {
    const { code, lines } = await validate()
    expect(lines.filter((line) => line.startsWith('error '))).toEqual([])
    expect(code).toBe(0)
    expect(lines.at(-1)).toMatch(/^0 errors, \d+ warnings? in \d+ documents of .*production\.ndjson$/)
  })

  it('fails a dataset with errors, naming document, field and message', async () => {
    const file = await dataset('broken', [
      { _id: 'siteSettings', _type: 'siteSettings', vatRate: 0.5 },
      {
        ...event,
        tabs: ['overview', 'register', 'speakers'],
        priceOptions: [venue, { _key: 'e', _type: 'priceOption', key: 'early-bird', amount: 9500, earlyBirdUntil: '2025-06-13' }],
        agendaDays: [{ _key: 'd1', label: 'Day 1', date: '2025-07-23', sessions: [{ _key: 's1', _type: 'agendaSession', title: 'Keynote', start: 'banana', end: '08:30' }] }],
      },
    ])
    const { code, lines } = await validate(file)
    expect(code).toBe(1)
    expect(lines).toEqual([
      'error siteSettings vatRate: The VAT rate is a fraction from 0 to 0.3 (0.15 for 15%), not 0.5',
      'error event-x tabs: The Speakers tab needs at least one speaker',
      'error event-x agendaDays[_key=="d1"].sessions[_key=="s1"].start: "banana" is not a time; use 24-hour HH:mm, e.g. 07:30',
      'error event-x priceOptions[_key=="e"].amount: The early-bird price (R 9 500.00) must be below the venue price (R 8 490.00)',
      `4 errors, 0 warnings in 2 documents of ${file}`,
    ])
  })

  it('lists warnings but passes when there is no error', async () => {
    const file = await dataset('warnings', [
      { ...event, kind: 'workshop', priceOptions: [venue, { _key: 't', _type: 'priceOption', key: 'table-5', amount: 30000 }] },
    ])
    const { code, lines } = await validate(file)
    expect(lines).toEqual([
      'warning event-x priceOptions: Table options are normally offered on conferences only',
      `0 errors, 1 warning in 1 documents of ${file}`,
    ])
    expect(code).toBe(0)
  })

  it('flags a redirect whose target does not exist or that loops', async () => {
    const file = await dataset('redirects', [
      { ...event, kind: 'conference', slug: { _type: 'slug', current: 'NewSlug' } },
      { _id: 'redirect-ok', _type: 'redirect', from: '/conference/OldSlug', to: '/conference/NewSlug' },
      { _id: 'redirect-gone', _type: 'redirect', from: '/conference/Other', to: '/conference/Missing' },
      { _id: 'redirect-a', _type: 'redirect', from: '/workshop/a', to: '/workshop/b' },
      { _id: 'redirect-b', _type: 'redirect', from: '/workshop/b', to: '/workshop/a' },
    ])
    const { code, lines } = await validate(file)
    expect(code).toBe(1)
    expect(lines).toEqual([
      'error redirect-gone to: Nothing on the site is at /conference/Missing: point the redirect at an existing event or page',
      'error redirect-a to: These redirects go round in a loop: /workshop/a → /workshop/b → /workshop/a',
      'error redirect-b to: These redirects go round in a loop: /workshop/b → /workshop/a → /workshop/b',
      `3 errors, 0 warnings in 5 documents of ${file}`,
    ])
  })
})
