import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROKEN_CONTENT, withChange } from './brokenContent.fixture.ts'
import { formatMarker, validateDatasetFile } from './lib/datasetValidation.ts'
import { parseNdjson } from './lib/contentValidation.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const datasetDir = path.join(root, 'packages/content/dataset')
const shipped = parseNdjson(await readFile(path.join(datasetDir, 'production.ndjson'), 'utf8'))
let directory: string

/** `pnpm content:validate FILE...` as a developer or CI types it, from the repository root. */
async function validate(files: string[]): Promise<{ code: number; lines: string[] }> {
  try {
    const { stdout } = await promisify(execFile)('pnpm', ['--silent', 'content:validate', ...files], { cwd: root, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, lines: stdout.trim().split('\n') }
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string }
    return { code, lines: stdout.trim().split('\n') }
  }
}

/** The lines the command printed for one file: its problems and its summary. */
function report(lines: string[], file: string): string[] {
  const end = lines.findIndex((line) => line.endsWith(` documents of ${file}`))
  if (end === -1) throw new Error(`No report for ${file} in:\n${lines.join('\n')}`)
  const previousEnd = lines.slice(0, end).findLastIndex((line) => / documents of /.test(line))
  return lines.slice(previousEnd + 1, end + 1)
}

// The broken datasets sit in a folder of their own, with the shipped images beside them as the importer expects.
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
const settings = shipped.find((document) => document._id === 'siteSettings')!
const resilience = shipped.find((document) => document._id === 'event-resilience')!
const brokenCases = BROKEN_CONTENT.map((broken, index) => ({ ...broken, file: '', slug: `broken-${String(index + 1).padStart(2, '0')}` }))
let ownFiles: Record<'broken' | 'redirects' | 'priceMoves', string>
let output: { code: number; lines: string[] }
let shippedOutput: { code: number; lines: string[] }

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'content-validate-'))
  await symlink(path.join(datasetDir, 'images'), path.join(directory, 'images'))
  for (const broken of brokenCases) broken.file = await dataset(broken.slug, withChange(shipped, broken.id, broken.change))
  ownFiles = {
    broken: await dataset('rules', [
      { ...settings, vatRate: 0.15 },
      {
        ...event,
        tabs: ['overview', 'register', 'speakers'],
        priceOptions: [
          venue,
          { _key: 'e', _type: 'priceOption', key: 'early-bird', label: 'Early-bird', amount: 9500, earlyBirdUntil: '2025-06-13' },
          // R 5 490 plus 15% VAT, typed into a field that is excl. VAT.
          { _key: 'o', _type: 'priceOption', key: 'online', label: 'Online', amount: 6313.5 },
        ],
        agendaDays: [
          {
            _key: 'd1',
            label: 'Day 1',
            date: '2025-07-23',
            sessions: [{ _key: 's1', _type: 'agendaSession', title: 'Keynote', start: 'banana', end: '08:30' }],
          },
        ],
      },
    ]),
    // Next year's edition of the flagship, its venue price typed as R 12 000 against last year's R 8 490.
    priceMoves: await dataset('price-moves', [
      ...shipped,
      {
        ...resilience,
        _id: 'event-resilience-2026',
        slug: { _type: 'slug', current: 'Resilience-2026' },
        previousEdition: { _type: 'reference', _ref: 'event-resilience', _weak: true },
        priceOptions: (resilience.priceOptions as { key: string }[]).map((option) => (option.key === 'venue' ? { ...option, amount: 12_000 } : option)),
      },
    ]),
    redirects: await dataset('redirects', [
      ...shipped,
      { _id: 'redirect-ok', _type: 'redirect', from: '/conference/OldSlug', to: '/conference/Resilience' },
      { _id: 'redirect-gone', _type: 'redirect', from: '/conference/Other', to: '/conference/Missing' },
      { _id: 'redirect-a', _type: 'redirect', from: '/workshop/a', to: '/workshop/b' },
      { _id: 'redirect-b', _type: 'redirect', from: '/workshop/b', to: '/workshop/a' },
    ]),
  }
  // Two runs in all: the command starts the Studio's schema once per run, which takes a while.
  ;[output, shippedOutput] = await Promise.all([
    validate([...brokenCases.map((broken) => broken.file), ownFiles.broken, ownFiles.redirects, ownFiles.priceMoves]),
    validate([]),
  ])
}, 300_000)

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

describe('pnpm content:validate', () => {
  it('passes the shipped dataset', () => {
    expect(shippedOutput.lines.filter((line) => line.startsWith('error '))).toEqual([])
    expect(shippedOutput.code).toBe(0)
    expect(shippedOutput.lines.at(-1)).toMatch(/^0 errors, \d+ warnings? in \d+ documents of packages\/content\/dataset\/production\.ndjson$/)
  })

  it('fails when a file has errors', () => {
    expect(output.code).toBe(1)
  })

  // The same broken documents, given to the Studio's validation and to the command, get the same errors: each where
  // the table says, on the documents it names.
  it.each(brokenCases)('rejects $name, as the Studio does', async ({ file, id, path: where, errorOn = [id] }) => {
    const studio = (await validateDatasetFile(file)).markers.filter((marker) => marker.level === 'error')
    expect(studio.length).toBeGreaterThan(0)
    expect(
      studio.every((marker) => errorOn.includes(marker.documentId) && marker.path.startsWith(where)),
      JSON.stringify(studio),
    ).toBe(true)
    expect(new Set(studio.map((marker) => marker.documentId))).toEqual(new Set(errorOn))
    expect(report(output.lines, file).filter((line) => line.startsWith('error '))).toEqual(studio.map(formatMarker))
  })

  it('names each problem by document, path and message', () => {
    const lines = report(output.lines, ownFiles.broken)
    expect(lines).toEqual(
      expect.arrayContaining([
        'error siteSettings vatRate: Enter the VAT rate as a percentage: 15 for 15%, not 0.15',
        'error event-x title: Required',
        'error event-x card.image: Required',
        'error event-x tabs: The Speakers tab needs at least one speaker',
        'error event-x agendaDays[_key=="d1"].sessions[_key=="s1"].start: "banana" is not a time; use 24-hour HH:mm, e.g. 07:30',
        'error event-x priceOptions[_key=="e"].amount: The early-bird price (R 9 500.00) must be below the venue price (R 8 490.00)',
      ]),
    )
    expect(lines.at(-1)).toMatch(/^17 errors, \d+ warnings? in 2 documents of /)
  })

  it('warns of a price that looks VAT-inclusive, as the Studio does', async () => {
    const warning =
      'warning event-x priceOptions[_key=="o"].amount: R 6 313.50 is R 5 490.00 plus 15% VAT: prices are entered excl. VAT, so check this one is not VAT-inclusive'
    expect(report(output.lines, ownFiles.broken)).toContain(warning)
    const studio = (await validateDatasetFile(ownFiles.broken)).markers.filter((marker) => marker.level === 'warning')
    expect(studio.map(formatMarker)).toContain(warning)
  })

  it("warns of a price more than 25% from the previous edition's, with both figures, as the Studio does", async () => {
    const warning =
      'warning event-resilience-2026 priceOptions[_key=="price-resilience-venue"].amount: The venue price moved from R 8 490.00 in "Economic Resilience Conference 2025" to R 12 000.00, up 41%: check it is meant'
    expect(report(output.lines, ownFiles.priceMoves)).toContain(warning)
    const studio = (await validateDatasetFile(ownFiles.priceMoves)).markers.filter((marker) => marker.level === 'warning')
    expect(studio.map(formatMarker)).toContain(warning)
  })

  it('flags a redirect whose target does not exist or that loops', () => {
    expect(report(output.lines, ownFiles.redirects).filter((line) => line.startsWith('error '))).toEqual([
      'error redirect-gone to: Nothing on the site is at /conference/Missing: point the redirect at an existing event or page',
      'error redirect-a to: These redirects go round in a loop: /workshop/a → /workshop/b → /workshop/a',
      'error redirect-b to: These redirects go round in a loop: /workshop/b → /workshop/a → /workshop/b',
    ])
  })
})
