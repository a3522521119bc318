import { imageSize } from 'image-size'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

let site: RunningSite

beforeAll(async () => {
  site = await startSite()
})

afterAll(async () => {
  await site?.stop()
})

function metaContent(html: string, property: string): string | undefined {
  return new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1]?.replaceAll('&amp;', '&')
}

describe('link-preview images of the built site', () => {
  it.each(['/', '/conference/Resilience', '/conference/pfas', '/workshop/legalOpinion', '/workshop', '/mission'])(
    '%s names a 1200×630 PNG on the site that answers',
    async (pathname) => {
      const html = await (await fetch(`${site.baseUrl}${pathname}`)).text()
      const imageUrl = metaContent(html, 'og:image')
      expect(imageUrl).toMatch(new RegExp(`^${site.baseUrl}/og/[a-z-]+\\.png$`))
      expect(metaContent(html, 'og:image:width')).toBe('1200')
      expect(metaContent(html, 'og:image:height')).toBe('630')
      const image = await fetch(imageUrl!)
      expect(image.status).toBe(200)
      expect(image.headers.get('content-type')).toBe('image/png')
      expect(imageSize(new Uint8Array(await image.arrayBuffer()))).toMatchObject({ type: 'png', width: 1200, height: 630 })
    },
  )

  it('shows each event its own artwork', async () => {
    const imageOf = async (pathname: string) => metaContent(await (await fetch(`${site.baseUrl}${pathname}`)).text(), 'og:image')
    expect(await imageOf('/conference/pfas')).toBe(`${site.baseUrl}/og/event-pfas.png`)
    expect(await imageOf('/')).toBe(`${site.baseUrl}/og/page-home.png`)
  })
})
