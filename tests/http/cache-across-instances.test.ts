// Two instances behind a round-robin balancer: the same content must give the same page bytes and ETag on both,
// so a browser's revalidation is a 304 whichever instance answers it, in whichever coding it asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

// Both instances serve one public origin, as they do behind a balancer.
const env = { SITE_URL: 'http://localhost:3000' }
const pages = ['/', '/conference/Resilience', '/workshop', '/workshop/legalOpinion', '/terms', '/inhouse-training']
const codings = ['identity', 'gzip', 'br'] as const

let first: RunningSite
let second: RunningSite

beforeAll(async () => {
  ;[first, second] = await Promise.all([startSite({ env }), startSite({ env })])
})

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()])
})

async function page(site: RunningSite, path: string, coding: (typeof codings)[number], headers: Record<string, string> = {}) {
  const response = await fetch(`${site.baseUrl}${path}`, { headers: { 'Accept-Encoding': coding, ...headers }, decompress: false } as RequestInit)
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    encoding: response.headers.get('content-encoding'),
    bytes: Buffer.from(await response.arrayBuffer()),
  }
}

describe('pages cached on two instances', () => {
  it.each(pages)('%s: the same bytes and ETag from both, in every coding, rendered and then from the cache', async (path) => {
    for (const coding of codings) {
      // The first answer of each is a render, the second comes from its cache: all four must agree.
      const answers = [await page(first, path, coding), await page(second, path, coding), await page(first, path, coding), await page(second, path, coding)]
      for (const answer of answers) {
        expect(answer.status).toBe(200)
        expect(answer.encoding ?? 'identity').toBe(coding)
        expect(answer.etag).toBe(answers[0]!.etag)
        expect(answer.bytes.equals(answers[0]!.bytes), `${path} in ${coding}`).toBe(true)
      }
      expect(answers[0]!.bytes.toString('latin1')).not.toMatch(/dehydratedAt\\?",\d{10,}|dataUpdatedAt\\?",\d{10,}/)
    }
  })

  it.each(codings)('answers 304 to an ETag one instance gave for %s, on the other instance, whatever coding the revalidation asks for', async (coding) => {
    const { etag } = await page(first, '/conference/Resilience', coding)
    expect(etag).toMatch(/^"[\w-]+"$/)
    for (const asked of codings) {
      const revalidated = await page(second, '/conference/Resilience', asked, { 'If-None-Match': etag! })
      expect(revalidated.status, `${coding} ETag revalidated asking for ${asked}`).toBe(304)
      expect(revalidated.bytes.length).toBe(0)
    }
    // With Node's fetch as it comes (it asks for every coding it can decode and decodes the answer itself).
    expect((await fetch(`${second.baseUrl}/conference/Resilience`, { headers: { 'If-None-Match': etag! } })).status).toBe(304)
    expect((await page(second, '/conference/Resilience', coding, { 'If-None-Match': '"not-this-page"' })).status).toBe(200)
  })
})
