import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { imageSize } from 'image-size'
import { describe, expect, it } from 'vitest'
import { socialImagePath } from '../app/lib/social-image'
import { renderSocialImage, socialImageSources } from './social-images'

const datasetDir = `${path.resolve(__dirname, '../../../packages/content/dataset')}/`

describe('socialImageSources', () => {
  it('lists the shipped artwork of every event card and page hero once', async () => {
    const sources = socialImageSources(await readFile(`${datasetDir}production.ndjson`, 'utf8'))
    expect(sources).toContain('images/event-pfas.svg')
    expect(sources).toContain('images/page-home.svg')
    expect(sources.some((source) => source.includes('speaker'))).toBe(false)
    expect(new Set(sources).size).toBe(sources.length)
  })
})

describe('renderSocialImage', () => {
  it('makes a 1200×630 PNG of an artwork of another shape', async () => {
    const png = renderSocialImage(await readFile(`${datasetDir}images/event-pfas.svg`, 'utf8'))
    expect(imageSize(png)).toMatchObject({ type: 'png', width: 1200, height: 630 })
  })

  it('names the PNG after its artwork', () => {
    expect(socialImagePath('images/event-pfas.svg')).toBe('/og/event-pfas.png')
  })
})
