import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentsForPerspective, loadDataset, type SanityDocument } from './dataset.ts'

const fixtureDir = fileURLToPath(new URL('./__fixtures__/dataset', import.meta.url))

describe('loadDataset', () => {
  it('rewrites image assets as Sanity stores them after import', async () => {
    const { documents } = await loadDataset({ datasetPath: path.join(fixtureDir, 'production.ndjson'), assetBasePath: '/_content' })
    const sha1 = createHash('sha1')
      .update(await readFile(path.join(fixtureDir, 'images/speaker-jane.svg')))
      .digest('hex')
    const speaker = documents.find((document) => document._id === 'speaker-jane')
    expect(speaker?.image).toEqual({
      _type: 'image',
      alt: 'Portrait of Dr Jane Doe',
      asset: { _type: 'reference', _ref: `image-${sha1}-400x500-svg` },
    })
    const asset = documents.find((document) => document._id === `image-${sha1}-400x500-svg`)
    expect(asset).toMatchObject({
      _type: 'sanity.imageAsset',
      assetId: sha1,
      extension: 'svg',
      mimeType: 'image/svg+xml',
      originalFilename: 'speaker-jane.svg',
      url: '/_content/images/speaker-jane.svg',
    })
    // Three documents use the same file: one asset document.
    expect(documents.filter((document) => document._id === asset?._id)).toHaveLength(1)
  })

  it('takes image dimensions from the SVG viewBox when it has no width and height', async () => {
    const { documents } = await loadDataset({ datasetPath: path.join(fixtureDir, 'production.ndjson'), assetBasePath: '/_content' })
    const asset = documents.find((document) => document.originalFilename === 'event-resilience.svg')
    expect(asset?.metadata).toMatchObject({ dimensions: { width: 1200, height: 630 } })
  })

  it('rewrites file assets into sanity.fileAsset documents', async () => {
    const { documents, assetFiles } = await loadDataset({ datasetPath: path.join(fixtureDir, 'production.ndjson'), assetBasePath: '/_content' })
    const event = documents.find((document) => document._id === 'event-pfas') as SanityDocument & { brochure: { asset: { _ref: string } } }
    expect(event.brochure.asset._ref).toMatch(/^file-[0-9a-f]{40}-txt$/)
    expect(documents.find((document) => document._id === event.brochure.asset._ref)).toMatchObject({
      _type: 'sanity.fileAsset',
      url: '/_content/files/brochure.txt',
      mimeType: 'text/plain; charset=utf-8',
    })
    expect(assetFiles.get('files/brochure.txt')?.filePath).toBe(path.join(fixtureDir, 'files/brochure.txt'))
  })

  it('adds the timestamps an import adds when a document has none', async () => {
    const { documents } = await loadDataset({ datasetPath: path.join(fixtureDir, 'production.ndjson'), assetBasePath: '/_content' })
    for (const document of documents) {
      expect(document._createdAt, document._id).toMatch(/^\d{4}-\d{2}-\d{2}T/)
      expect(document._updatedAt, document._id).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    }
  })

  describe('rejects what an import could not do locally', () => {
    let workDir: string

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), 'content-dataset-'))
    })

    afterAll(async () => {
      await rm(workDir, { recursive: true, force: true })
    })

    it.each([
      { name: 'a remote asset', asset: 'image@https://example.com/x.png', message: /unsupported _sanityAsset/ },
      { name: 'an asset outside the dataset directory', asset: 'image@file://../x.svg', message: /outside the dataset directory/ },
      { name: 'a missing asset file', asset: 'image@file://./images/missing.svg', message: /cannot read asset/ },
    ])('$name', async ({ asset, message }) => {
      const datasetPath = path.join(workDir, 'production.ndjson')
      await writeFile(datasetPath, `${JSON.stringify({ _id: 'a', _type: 'speaker', image: { _type: 'image', _sanityAsset: asset } })}\n`)
      await expect(loadDataset({ datasetPath, assetBasePath: '' })).rejects.toThrow(message)
    })

    it('a line that is not a document', async () => {
      const datasetPath = path.join(workDir, 'production.ndjson')
      await writeFile(datasetPath, '{"_id":"a","_type":"speaker"}\n\n{"name":"no id"}\n')
      await expect(loadDataset({ datasetPath, assetBasePath: '' })).rejects.toThrow(/production\.ndjson:3: a document needs string _id and _type/)
    })
  })
})

describe('documentsForPerspective', () => {
  const documents: SanityDocument[] = [
    { _id: 'a', _type: 'speaker', name: 'A' },
    { _id: 'drafts.a', _type: 'speaker', name: 'A (draft)' },
    { _id: 'drafts.b', _type: 'speaker', name: 'B (new draft)' },
    { _id: 'versions.r1.a', _type: 'speaker', name: 'A (release)' },
  ]

  it('published: no drafts, no release versions', () => {
    expect(documentsForPerspective(documents, 'published').map((document) => document._id)).toEqual(['a'])
  })

  it('drafts: drafts in place of their published documents, under the published id', () => {
    expect(documentsForPerspective(documents, 'drafts')).toEqual([
      { _id: 'a', _type: 'speaker', name: 'A (draft)', _originalId: 'drafts.a' },
      { _id: 'b', _type: 'speaker', name: 'B (new draft)', _originalId: 'drafts.b' },
    ])
  })

  it('raw: everything as stored', () => {
    expect(documentsForPerspective(documents, 'raw')).toBe(documents)
  })
})
