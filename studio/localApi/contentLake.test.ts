import { request } from 'node:https'
import { describe, expect, it } from 'vitest'
import type { SanityDocument } from 'sanity'
import { startContentLake, type ContentLake } from './contentLake.ts'

/** POSTs JSON to the stand-in over its TLS, answering the status and the parsed body. */
function post(lake: ContentLake, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const call = request(
      {
        method: 'POST',
        host: '127.0.0.1',
        servername: 'local.localhost',
        port: new URL(lake.apiHost).port,
        path,
        ca: lake.certificate,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }))
      },
    )
    call.on('error', reject)
    call.end(JSON.stringify(body))
  })
}

const speaker = { _id: 'speaker-lerato', _type: 'speaker', name: 'Lerato Molefe' } as unknown as SanityDocument
const event = {
  _id: 'event-resilience',
  _type: 'event',
  title: 'Resilience',
  speakers: [{ _key: 'a', _type: 'reference', _ref: 'speaker-lerato' }],
  agendaDays: [{ _key: 'd1', sessions: [{ _key: 's1', speakers: [{ _key: 'b', _type: 'reference', _ref: 'speaker-lerato' }] }] }],
} as unknown as SanityDocument
const draftPage = {
  _id: 'drafts.page-about',
  _type: 'page',
  cards: [{ _key: 'c', person: { _type: 'reference', _ref: 'speaker-lerato' } }],
} as unknown as SanityDocument
const weaklyReferring = { _id: 'page-team', _type: 'page', person: { _type: 'reference', _ref: 'speaker-thabo', _weak: true } } as unknown as SanityDocument
const unreferenced = { _id: 'speaker-thabo', _type: 'speaker', name: 'Thabo Nkosi' } as unknown as SanityDocument
const deleteAction = (publishedId: string) => ({ actions: [{ actionType: 'sanity.action.document.delete', publishedId }] })

describe('the stand-in of Sanity’s API', () => {
  it('keeps a quiet listener stream talking, so the studio does not drop and reopen it in the middle of a Publish', async () => {
    const lake = await startContentLake({ documents: [], keepAliveMs: 50 })
    try {
      const received = await new Promise<string>((resolve, reject) => {
        const listen = request(
          {
            host: '127.0.0.1',
            servername: 'local.localhost',
            port: new URL(lake.apiHost).port,
            path: '/v2025-02-19/data/listen/production?query=*',
            ca: lake.certificate,
          },
          (response) => {
            let text = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => {
              text += chunk
              if (text.includes(': keep-alive')) {
                listen.destroy()
                resolve(text)
              }
            })
          },
        )
        listen.on('error', reject)
        listen.end()
      })
      expect(received).toMatch(/^event: welcome\n[^]*\n\n: keep-alive\n\n/)
    } finally {
      await lake.stop()
    }
  })

  describe('as the Content Lake, refuses to delete a document others refer to', () => {
    it('names every document that refers to it and keeps it', async () => {
      const lake = await startContentLake({ documents: [speaker, event, draftPage] })
      try {
        const answer = await post(lake, '/v2025-02-19/data/actions/production', deleteAction('speaker-lerato'))
        expect(answer.status).toBe(409)
        expect((answer.body.error as { description: string }).description).toBe(
          'The mutation(s) failed: Document "speaker-lerato" cannot be deleted as there are references to it from "event-resilience", "drafts.page-about"',
        )
        expect(lake.documents.has('speaker-lerato')).toBe(true)
      } finally {
        await lake.stop()
      }
    })

    it('refuses the same through the mutations endpoint, applying nothing of the transaction', async () => {
      const lake = await startContentLake({ documents: [speaker, event, unreferenced] })
      try {
        const answer = await post(lake, '/v2025-02-19/data/mutate/production', {
          mutations: [{ delete: { id: 'speaker-thabo' } }, { delete: { id: 'speaker-lerato' } }],
        })
        expect(answer.status).toBe(409)
        expect(lake.documents.has('speaker-thabo')).toBe(true)
        expect(lake.documents.has('speaker-lerato')).toBe(true)
      } finally {
        await lake.stop()
      }
    })

    it('deletes a document referred to only weakly, or only by documents deleted with it', async () => {
      const lake = await startContentLake({ documents: [speaker, event, unreferenced, weaklyReferring] })
      try {
        expect((await post(lake, '/v2025-02-19/data/actions/production', deleteAction('speaker-thabo'))).status).toBe(200)
        const both = await post(lake, '/v2025-02-19/data/mutate/production', {
          mutations: [{ delete: { id: 'event-resilience' } }, { delete: { id: 'speaker-lerato' } }],
        })
        expect(both.status).toBe(200)
        expect([...lake.documents.keys()]).toEqual(['page-team'])
      } finally {
        await lake.stop()
      }
    })
  })
})
