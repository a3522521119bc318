import { imageSources } from '@events/content'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ContentImage } from './ContentImage'

const hosted = imageSources(
  {
    url: 'https://cdn.sanity.io/images/abc123/production/f00d-2000x1000.jpg',
    width: 2000,
    height: 1000,
    assetRef: 'image-f00d-2000x1000-jpg',
    crop: { top: 0, bottom: 0, left: 0.5, right: 0 },
    aspectRatio: 1,
  },
  { projectId: 'abc123', dataset: 'production' },
)

describe('ContentImage', () => {
  it('gives a hosted image its srcset and sizes, and the cropped shape as width and height', () => {
    render(<ContentImage image={{ ...hosted, alt: 'Delegates at the conference' }} sizes="(min-width: 769px) 33vw, 100vw" />)
    const image = screen.getByRole('img', { name: 'Delegates at the conference' })
    expect(image.getAttribute('srcset')).toBe(hosted.srcSet)
    expect(image.getAttribute('srcset')).toMatch(/rect=1000,0,1000,1000&w=320&h=320&fit=crop&auto=format 320w/)
    expect(image).toHaveAttribute('sizes', '(min-width: 769px) 33vw, 100vw')
    expect(image).toHaveAttribute('src', hosted.url)
    expect(image).toHaveAttribute('width', '1000')
    expect(image).toHaveAttribute('height', '1000')
    expect(image).toHaveAttribute('loading', 'lazy')
  })

  it('serves a shipped file as it is, without srcset or sizes', () => {
    render(<ContentImage image={{ url: '/_content/images/event-pfas.svg', srcSet: null, width: 1200, height: 675, alt: 'PFAS' }} sizes="100vw" />)
    const image = screen.getByRole('img', { name: 'PFAS' })
    expect(image).toHaveAttribute('src', '/_content/images/event-pfas.svg')
    expect(image).not.toHaveAttribute('srcset')
    expect(image).not.toHaveAttribute('sizes')
    expect(image).toHaveAttribute('width', '1200')
  })

  it('fetches the image a page opens with at once and first', () => {
    render(<ContentImage image={{ url: '/_content/images/event-pfas.svg', srcSet: null, width: 1200, height: 675, alt: 'PFAS' }} sizes="100vw" priority />)
    const image = screen.getByRole('img', { name: 'PFAS' })
    expect(image).toHaveAttribute('loading', 'eager')
    expect(image).toHaveAttribute('fetchpriority', 'high')
  })

  it('lets the caller hide the alternative text', () => {
    const { container } = render(<ContentImage image={{ url: '/a.svg', srcSet: null, width: 1, height: 1, alt: 'Logo' }} alt="" sizes="10rem" />)
    expect(container.querySelector('img')).toHaveAttribute('alt', '')
  })
})
