import { describe, expect, it } from 'vitest'
import { imageSources, socialImageUrl, withImageSources, type ProjectedImage } from './image-sources.ts'

const project = { projectId: 'abc123', dataset: 'production' }
const hosted: ProjectedImage = {
  url: 'https://cdn.sanity.io/images/abc123/production/f00d-2000x1000.jpg',
  width: 2000,
  height: 1000,
  assetRef: 'image-f00d-2000x1000-jpg',
}
const shipped: ProjectedImage = { url: '/_content/images/event-pfas.svg', width: 1200, height: 675, assetRef: 'image-abc-1200x675-svg' }

const params = (url: string) => Object.fromEntries(new URL(url).searchParams)

describe('imageSources', () => {
  it("offers a hosted image at widths up to its own, in the browser's best format", () => {
    const sources = imageSources(hosted, project)
    const candidates = sources.srcSet!.split(', ').map((candidate) => candidate.split(' '))
    expect(candidates.map(([, width]) => width)).toEqual(['320w', '480w', '640w', '800w', '1024w', '1280w', '1600w', '1920w', '2000w'])
    expect(params(candidates[2]![0]!)).toEqual({ w: '640', h: '320', fit: 'crop', auto: 'format' })
    expect(sources).toMatchObject({ width: 2000, height: 1000 })
    expect(params(sources.url!)).toMatchObject({ w: '1024', h: '512' })
  })

  it('keeps only what the editor cropped to, and says so in width and height', () => {
    const sources = imageSources({ ...hosted, crop: { top: 0.1, bottom: 0.1, left: 0.2, right: 0 } }, project)
    expect(sources).toMatchObject({ width: 1600, height: 800 })
    const widest = sources.srcSet!.split(', ').at(-1)!.split(' ')[0]!
    expect(params(widest)).toMatchObject({ rect: '400,100,1600,800', w: '1600', h: '800' })
  })

  it('frames the hotspot when the site shows the image in another shape', () => {
    const hotspot = { x: 0.8, y: 0.5, width: 0.1, height: 0.1 }
    const centred = imageSources({ ...hosted, aspectRatio: 1 }, project)
    const onHotspot = imageSources({ ...hosted, aspectRatio: 1, hotspot }, project)
    expect(centred).toMatchObject({ width: 2000, height: 2000 })
    expect(params(centred.url!)).toMatchObject({ w: '1024', h: '1024', fit: 'crop' })
    expect(params(onHotspot.url!).rect).toBe('1000,0,1000,1000')
  })

  it("serves the embedded dataset's shipped files as they are", () => {
    expect(imageSources(shipped, project)).toEqual({ url: '/_content/images/event-pfas.svg', srcSet: null, width: 1200, height: 675 })
    expect(imageSources(hosted, {})).toMatchObject({ url: hosted.url, srcSet: null })
  })
})

describe('socialImageUrl', () => {
  it('is a 1200×630 JPEG of a hosted image, around its hotspot', () => {
    const url = socialImageUrl({ ...hosted, hotspot: { x: 0.9, y: 0.5, width: 0.1, height: 0.1 } }, project)!
    expect(params(url)).toEqual({ rect: '95,0,1905,1000', w: '1200', h: '630', fit: 'crop', fm: 'jpg' })
  })

  it('has nothing for the shipped files, which the build renders instead', () => {
    expect(socialImageUrl(shipped, project)).toBeUndefined()
  })
})

describe('withImageSources', () => {
  it('replaces every projected image of a result, keeping its other fields', () => {
    const result = { title: 'PFAS', card: { image: { ...hosted, alt: 'Water', crop: null, hotspot: null } }, speakers: [{ name: 'A', image: shipped }] }
    const shaped = withImageSources(result, project)
    expect(shaped.title).toBe('PFAS')
    expect(Object.keys(shaped.card.image).sort()).toEqual(['alt', 'height', 'srcSet', 'url', 'width'])
    expect(shaped.card.image.srcSet).toContain('1920w')
    expect(shaped.speakers[0]!.image).toEqual({ url: shipped.url, srcSet: null, width: 1200, height: 675 })
  })
})
