import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { LogoStrip, type CompanyLogo } from './LogoStrip'

const logos: CompanyLogo[] = [
  { _key: 'a', alt: 'Acme Mining', url: '/logos/acme.svg', srcSet: null, width: 160, height: 48 },
  { _key: 'b', alt: 'Baobab Bank', url: '/logos/baobab.svg', srcSet: null, width: 120, height: 48 },
  { _key: 'c', alt: 'Cape Logistics', url: '/logos/cape.svg', srcSet: null, width: 200, height: 48 },
]

describe('LogoStrip', () => {
  it('offers one named list of logos with their company names to assistive technology', () => {
    render(<LogoStrip logos={logos} />)
    const list = screen.getByRole('list', { name: 'Participating companies' })
    expect(screen.getAllByRole('list')).toEqual([list])
    expect(
      within(list)
        .getAllByRole('img')
        .map((image) => image.getAttribute('alt')),
    ).toEqual(['Acme Mining', 'Baobab Bank', 'Cape Logistics'])
    const first = within(list).getByRole('img', { name: 'Acme Mining' })
    expect(first).toHaveAttribute('width', '160')
    expect(first).toHaveAttribute('height', '48')
    expect(first).toHaveAttribute('loading', 'lazy')
  })

  it('repeats the logos three times, the copies hidden, unlabelled and out of the focus order', () => {
    const { container } = render(<LogoStrip logos={logos} />)
    const lists = [...container.querySelectorAll('ul')]
    expect(lists).toHaveLength(3)
    for (const copy of lists.slice(1)) {
      expect(copy).toHaveAttribute('aria-hidden', 'true')
      expect(copy).toHaveAttribute('inert')
      expect(copy).not.toHaveAttribute('aria-label')
      const images = [...copy.querySelectorAll('img')]
      expect(images).toHaveLength(3)
      expect(images.every((image) => image.getAttribute('alt') === '')).toBe(true)
    }
    expect(lists[0]).not.toHaveAttribute('aria-hidden')
  })

  it('has a pause button that reports whether the loop is paused', async () => {
    const user = userEvent.setup()
    const { container } = render(<LogoStrip logos={logos} />)
    const pause = screen.getByRole('button', { name: 'Pause logo animation' })
    expect(pause).toHaveAttribute('aria-pressed', 'false')
    await user.click(pause)
    expect(pause).toHaveAttribute('aria-pressed', 'true')
    expect(container.firstElementChild).toHaveClass('logo-strip--paused')
    await user.click(pause)
    expect(pause).toHaveAttribute('aria-pressed', 'false')
  })

  it('sets the loop length from the number of logos', () => {
    const { container } = render(<LogoStrip logos={logos} />)
    expect((container.firstElementChild as HTMLElement).style.getPropertyValue('--logo-count')).toBe('3')
  })

  it('leaves out logos without an image and renders nothing when none is left', () => {
    const { container, rerender } = render(<LogoStrip logos={[...logos, { _key: 'd', alt: 'Draft', url: null, srcSet: null, width: null, height: null }]} />)
    expect(within(screen.getByRole('list')).getAllByRole('img')).toHaveLength(3)
    rerender(<LogoStrip logos={[]} />)
    expect(container).toBeEmptyDOMElement()
  })
})
