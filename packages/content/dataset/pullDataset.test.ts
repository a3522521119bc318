import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createLocalContentSource } from '../src/local-source.ts'
import { pullDataset, pullOptionsFromEnv, type PullOptions } from './pullDataset.ts'

const TOKEN = 'read-token-for-the-test'
// A 2×1 PNG, the kind of file editors upload.
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mP8z8Dwn4GBgQEADwEBAGiFD0kAAAAASUVORK5CYII=',
  'base64',
)
const LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>')
const sha1 = (content: Buffer) => createHash('sha1').update(content).digest('hex')
const PHOTO_ID = `image-${sha1(PHOTO)}-2x1-png`
const LOGO_ID = `image-${sha1(LOGO)}-40x20-svg`

/** Answers like Sanity's API: the export endpoint (with a token) and the CDN's image files. */
class FakeSanity {
  server: Server
  origin = ''
  files = new Map<string, Buffer>([
    [`/images/${sha1(PHOTO)}-2x1.png`, PHOTO],
    [`/images/${sha1(LOGO)}-40x20.svg`, LOGO],
  ])
  exportRequests: { url: string; authorization: string | undefined }[] = []

  constructor() {
    this.server = createServer((request, response) => {
      const url = request.url ?? '/'
      if (url === '/v2025-02-19/data/export/production') {
        this.exportRequests.push({ url, authorization: request.headers.authorization })
        if (request.headers.authorization !== `Bearer ${TOKEN}`) {
          response.writeHead(401, { 'content-type': 'application/json' })
          response.end(JSON.stringify({ error: { description: 'Unauthorized - Session not found', type: 'httpUnauthorized' } }))
          return
        }
        response.writeHead(200, { 'content-type': 'application/x-ndjson' })
        response.end(this.exportedDocuments().map((document) => JSON.stringify(document)).join('\n') + '\n')
        return
      }
      const file = this.files.get(url)
      response.writeHead(file ? 200 : 404)
      response.end(file)
    })
  }

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1')
    await once(this.server, 'listening')
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  exportedDocuments(): Record<string, unknown>[] {
    const asset = (id: string, file: string, content: Buffer, width: number, height: number, extension: string) => ({
      _id: id,
      _type: 'sanity.imageAsset',
      url: `${this.origin}/images/${file}`,
      sha1hash: sha1(content),
      extension,
      metadata: { dimensions: { width, height, aspectRatio: width / height } },
    })
    return [
      { _id: '_.groups.public', _type: 'system.group', grants: [] },
      { _id: 'drafts.secret-1', _type: 'sanity.previewUrlSecret', secret: 'not for a snapshot' },
      asset(PHOTO_ID, `${sha1(PHOTO)}-2x1.png`, PHOTO, 2, 1, 'png'),
      asset(LOGO_ID, `${sha1(LOGO)}-40x20.svg`, LOGO, 40, 20, 'svg'),
      {
        _id: 'event-summit',
        _type: 'event',
        title: 'Water Summit 2026',
        slug: { _type: 'slug', current: 'water-summit' },
        card: {
          image: {
            _type: 'image',
            asset: { _type: 'reference', _ref: PHOTO_ID },
            hotspot: { x: 0.3, y: 0.4, width: 0.5, height: 0.5 },
            alt: 'Delegates at the summit',
          },
        },
        partners: [{ _key: 'p1', _type: 'image', asset: { _type: 'reference', _ref: LOGO_ID }, alt: 'Partner' }],
      },
      { _id: 'drafts.event-summit', _type: 'event', title: 'Water Summit 2026 (draft)' },
    ]
  }
}

const fakeSanity = new FakeSanity()
let outDir: string

beforeAll(() => fakeSanity.start())
afterAll(() => new Promise<void>((resolve) => fakeSanity.server.close(() => resolve())))
beforeEach(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'content-pull-'))
})
afterEach(() => rm(outDir, { recursive: true, force: true }))

function options(overrides: Partial<PullOptions> = {}): PullOptions {
  return { projectId: 'abc123', dataset: 'production', token: TOKEN, apiHost: fakeSanity.origin, outDir, ...overrides }
}

async function query<T>(datasetPath: string, groq: string): Promise<T> {
  const source = createLocalContentSource({ datasetPath })
  const response = await source.handleContentRequest(
    new Request(`http://local/_content/v2025-02-19/data/query/production?query=${encodeURIComponent(groq)}`),
  )
  return ((await response!.json()) as { result: T }).result
}

describe('pnpm content:pull', () => {
  it('writes the dataset and its images so the local content source serves them', async () => {
    await mkdir(path.join(outDir, 'images'))
    await writeFile(path.join(outDir, 'images/placeholder-from-before.svg'), LOGO)

    const result = await pullDataset(options())

    expect(result).toEqual({ documents: 2, files: 2, datasetPath: path.join(outDir, 'production.ndjson') })
    expect(fakeSanity.exportRequests.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`)
    expect((await readdir(path.join(outDir, 'images'))).sort()).toEqual([`${sha1(LOGO)}-40x20.svg`, `${sha1(PHOTO)}-2x1.png`].sort())

    const lines = (await readFile(result.datasetPath, 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.map((document) => document._id)).toEqual(['event-summit', 'drafts.event-summit'])
    expect(lines[0].card.image).toEqual({
      _type: 'image',
      _sanityAsset: `image@file://./images/${sha1(PHOTO)}-2x1.png`,
      hotspot: { x: 0.3, y: 0.4, width: 0.5, height: 0.5 },
      alt: 'Delegates at the summit',
    })

    const event = await query<{ title: string; image: { _id: string; url: string; width: number }; hotspot: unknown; logo: string }>(
      result.datasetPath,
      '*[_id == "event-summit"][0]{title, "image": card.image.asset->{_id, url, "width": metadata.dimensions.width}, "hotspot": card.image.hotspot, "logo": partners[0].asset->url}',
    )
    expect(event).toEqual({
      title: 'Water Summit 2026',
      // The same asset id as in the project: references into the snapshot stay the project's.
      image: { _id: PHOTO_ID, url: `/_content/images/${sha1(PHOTO)}-2x1.png`, width: 2 },
      hotspot: { x: 0.3, y: 0.4, width: 0.5, height: 0.5 },
      logo: `/_content/images/${sha1(LOGO)}-40x20.svg`,
    })
    const image = await createLocalContentSource({ datasetPath: result.datasetPath }).handleContentRequest(
      new Request(`http://local${event.image.url}`),
    )
    expect(image?.status).toBe(200)
    expect(image?.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await image!.arrayBuffer()).equals(PHOTO)).toBe(true)
  })

  it('fails on a refused token with a hint and leaves the output as it was', async () => {
    await writeFile(path.join(outDir, 'production.ndjson'), '{"_id":"kept","_type":"page"}\n')
    await expect(pullDataset(options({ token: 'wrong' }))).rejects.toThrow(
      /answered 401: Unauthorized - Session not found \(set SANITY_API_READ_TOKEN to a token with read access/,
    )
    await expect(pullDataset(options({ dataset: 'missing' }))).rejects.toThrow(/answered 404.*check SANITY_PROJECT_ID and SANITY_DATASET/)
    expect(await readFile(path.join(outDir, 'production.ndjson'), 'utf8')).toBe('{"_id":"kept","_type":"page"}\n')
  })

  it('refuses an image whose download is not the asset the dataset names', async () => {
    const original = fakeSanity.files.get(`/images/${sha1(PHOTO)}-2x1.png`)!
    fakeSanity.files.set(`/images/${sha1(PHOTO)}-2x1.png`, LOGO)
    try {
      await expect(pullDataset(options())).rejects.toThrow(/gave a file whose SHA-1 .* is not the asset's/)
      expect(await readdir(outDir)).toEqual([])
    } finally {
      fakeSanity.files.set(`/images/${sha1(PHOTO)}-2x1.png`, original)
    }
  })

  it('runs as a command: the variables, --out DIR, and how to run the site on the result', async () => {
    const command = fileURLToPath(new URL('./pull.ts', import.meta.url))
    const env = { PATH: process.env.PATH, SANITY_PROJECT_ID: 'abc123', SANITY_DATASET: 'production', SANITY_API_READ_TOKEN: TOKEN, SANITY_API_HOST: fakeSanity.origin }
    const { stdout } = await promisify(execFile)(process.execPath, [command, '--out', outDir], { env })
    expect(stdout).toContain('Wrote 2 documents and 2 images and files')
    expect(stdout).toContain(`CONTENT_DATASET_PATH=${path.join(outDir, 'production.ndjson')} pnpm start`)
    expect(await readdir(outDir)).toEqual(['images', 'production.ndjson'])

    const refused = await promisify(execFile)(process.execPath, [command, '--out', outDir], { env: { ...env, SANITY_API_READ_TOKEN: 'wrong' } }).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^content:pull: .* answered 401/) })
  })

  it('reads the site’s variables and names the missing ones', () => {
    expect(() => pullOptionsFromEnv({ SANITY_DATASET: 'production' }, outDir)).toThrow(
      'Set SANITY_PROJECT_ID to the Sanity project and dataset to pull (and SANITY_API_READ_TOKEN for a private dataset)',
    )
    expect(pullOptionsFromEnv({ SANITY_PROJECT_ID: 'abc123', SANITY_DATASET: 'production', SANITY_API_READ_TOKEN: 't' }, outDir)).toEqual({
      projectId: 'abc123',
      dataset: 'production',
      token: 't',
      apiVersion: undefined,
      apiHost: undefined,
      outDir,
    })
  })
})
