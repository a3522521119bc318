// The local stand-in of Sanity's API over a working copy of the dataset file: what the studio commits is in the file
// the site reads, in the shipped format, and the file read back is the same content.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ensureWorkingCopy, readLakeDataset } from './datasetFile.ts'
import type { ContentLake } from './contentLake.ts'
import { startLocalContentApi } from './startLocalApi.ts'

const shippedDir = path.join(import.meta.dirname, '../../packages/content/dataset')
const workingDirs: string[] = []

afterEach(() => {
  for (const dir of workingDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function workingCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'local-content-test-'))
  workingDirs.push(dir)
  return ensureWorkingCopy(shippedDir, dir)
}

/** POSTs JSON to the stand-in, trusting the certificate it made (as a browser that accepted it does). */
function post(api: ContentLake, apiPath: string, body: unknown): Promise<number> {
  const { port } = new URL(api.apiHost)
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        servername: 'local.localhost',
        port,
        path: apiPath,
        method: 'POST',
        ca: api.certificate,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
      },
    )
    sent.on('error', reject)
    sent.end(JSON.stringify(body))
  })
}

type Line = { _id: string; _type: string; title?: string; card?: { image?: Record<string, unknown> } }
const linesOf = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)

describe('the local stand-in of Sanity’s API', () => {
  it('writes an edit and its Publish to the dataset file, images in the file’s own form', async () => {
    const datasetPath = workingCopy()
    const api = await startLocalContentApi({ datasetPath })
    const act = (body: unknown) => post(api, '/v2025-02-19/data/actions/production', body)
    try {
      expect(
        await act({ actions: [{ actionType: 'sanity.action.document.edit', publishedId: 'event-pfas', patch: { set: { title: 'PFAS 2025, edited' } } }] }),
      ).toBe(200)
      expect(linesOf(datasetPath).find((line) => line._id === 'drafts.event-pfas')?.title).toBe('PFAS 2025, edited')
      expect(linesOf(datasetPath).find((line) => line._id === 'event-pfas')?.title).toBe('PFAS Conference 2025')

      expect(await act({ actions: [{ actionType: 'sanity.action.document.publish', publishedId: 'event-pfas', draftId: 'drafts.event-pfas' }] })).toBe(200)
      const lines = linesOf(datasetPath)
      expect(lines.find((line) => line._id === 'event-pfas')?.title).toBe('PFAS 2025, edited')
      expect(lines.some((line) => line._id === 'drafts.event-pfas')).toBe(false)
      expect(lines.find((line) => line._id === 'event-pfas')?.card?.image).toMatchObject({
        _sanityAsset: expect.stringMatching(/^image@file:\/\/\.\/images\/.+\.svg$/),
      })
      expect(lines.some((line) => line._type === 'sanity.imageAsset')).toBe(false)
    } finally {
      await api.stop()
    }
  })

  it('reads back what it wrote as the same documents', async () => {
    const datasetPath = workingCopy()
    const api = await startLocalContentApi({ datasetPath })
    try {
      expect(await post(api, '/v2025-02-19/data/mutate/production', { mutations: [{ patch: { id: 'division-conferences', set: { order: 1 } } }] })).toBe(200)
    } finally {
      await api.stop()
    }
    const withoutDates = ({ documents }: { documents: Record<string, unknown>[] }) =>
      documents.map(({ _createdAt, _updatedAt, _rev, ...fields }) => fields).sort((a, b) => String(a._id).localeCompare(String(b._id)))
    const shipped = await readLakeDataset(path.join(shippedDir, 'production.ndjson'))
    const written = await readLakeDataset(datasetPath)
    expect(withoutDates(written)).toEqual(withoutDates(shipped))
  })
})
