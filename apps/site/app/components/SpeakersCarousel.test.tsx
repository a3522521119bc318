import { act, render, screen, within } from '@testing-library/react'
import { renderRichText } from '@events/content/rich-text'
import { paragraphBlocks } from '@events/content/text-blocks'
import userEvent from '@testing-library/user-event'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { installViewport, resizeViewport } from '../../test/viewport'
import { SpeakersCarousel, type Speaker } from './SpeakersCarousel'

const longBio = 'Chief economist who has advised three finance ministers on fiscal policy and public debt.'

/** A bio as the server hands it to the page: Portable Text rendered to HTML, with its plain text. */
const richText = (text: string) => renderRichText(paragraphBlocks('bio', text))

function speaker(number: number, overrides: Partial<Speaker> = {}): Speaker {
  return {
    _id: `speaker-${number}`,
    name: `Speaker ${number}`,
    position: 'Chief Economist',
    company: `Company ${number}`,
    bio: richText(longBio),
    image: { url: `/images/speaker-${number}.svg`, srcSet: null, width: 400, height: 400, alt: `Portrait of Speaker ${number}` },
    ...overrides,
  }
}

function speakers(count: number) {
  return Array.from({ length: count }, (_, index) => speaker(index + 1))
}

function visibleSlides() {
  return screen.getAllByRole('group').map((slide) => slide.getAttribute('aria-label'))
}

function renderCarousel(count: number) {
  render(<SpeakersCarousel speakers={speakers(count)} />)
  return { user: userEvent.setup() }
}

describe('SpeakersCarousel structure', () => {
  it('is a labelled carousel of labelled slides with named buttons', () => {
    renderCarousel(16)
    const carousel = screen.getByRole('region', { name: 'Speakers' })
    expect(carousel).toHaveAttribute('aria-roledescription', 'carousel')
    expect(within(carousel).getByRole('heading', { level: 2, name: 'Speakers' })).toHaveClass('speakers__heading')
    const first = screen.getByRole('group', { name: '1 of 16' })
    expect(first).toHaveAttribute('aria-roledescription', 'slide')
    expect(screen.getByRole('button', { name: 'Previous speakers' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Next speakers' })).toBeEnabled()
  })

  it('shows image, name, position and company on each card, the image lazy and sized', () => {
    renderCarousel(3)
    const card = screen.getByRole('group', { name: '2 of 3' })
    const image = within(card).getByRole('img', { name: 'Portrait of Speaker 2' })
    expect(image).toHaveAttribute('width', '400')
    expect(image).toHaveAttribute('height', '400')
    expect(image).toHaveAttribute('loading', 'lazy')
    expect(within(card).getByRole('heading', { level: 3, name: 'Speaker 2' })).toBeInTheDocument()
    expect(card).toHaveTextContent('Chief Economist')
    expect(card).toHaveTextContent('Company 2')
  })

  it('renders nothing without speakers', () => {
    const { container } = render(<SpeakersCarousel speakers={[]} />)
    expect(container).toBeEmptyDOMElement()
  })
})

describe('SpeakersCarousel from 769 px wide', () => {
  it('shows three at a time and steps by three, back to the start after the end', async () => {
    const { user } = renderCarousel(16)
    expect(visibleSlides()).toEqual(['1 of 16', '2 of 16', '3 of 16'])
    const next = screen.getByRole('button', { name: 'Next speakers' })
    await user.click(next)
    expect(visibleSlides()).toEqual(['4 of 16', '5 of 16', '6 of 16'])
    for (let press = 0; press < 4; press += 1) await user.click(next)
    expect(visibleSlides()).toEqual(['14 of 16', '15 of 16', '16 of 16'])
    await user.click(next)
    expect(visibleSlides()).toEqual(['1 of 16', '2 of 16', '3 of 16'])
  })

  it('goes from the start to the last three with previous', async () => {
    const { user } = renderCarousel(11)
    await user.click(screen.getByRole('button', { name: 'Previous speakers' }))
    expect(visibleSlides()).toEqual(['9 of 11', '10 of 11', '11 of 11'])
    await user.click(screen.getByRole('button', { name: 'Previous speakers' }))
    expect(visibleSlides()).toEqual(['6 of 11', '7 of 11', '8 of 11'])
  })

  it('announces the visible range politely once the visitor moves the carousel', async () => {
    const { user } = renderCarousel(16)
    const status = document.querySelector('[aria-live="polite"]')
    expect(status).toBeEmptyDOMElement()
    await user.click(screen.getByRole('button', { name: 'Next speakers' }))
    expect(status).toHaveTextContent('Showing speakers 4 to 6 of 16')
  })

  it.each([3, 2, 1])('disables both buttons when all %i speakers fit', (count) => {
    renderCarousel(count)
    expect(screen.getAllByRole('group')).toHaveLength(count)
    expect(screen.getByRole('button', { name: 'Previous speakers' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Next speakers' })).toBeDisabled()
  })
})

describe('SpeakersCarousel below 769 px', () => {
  it('shows one at a time and steps by one, wrapping at both ends', async () => {
    installViewport({ width: 375 })
    const { user } = renderCarousel(4)
    expect(visibleSlides()).toEqual(['1 of 4'])
    await user.click(screen.getByRole('button', { name: 'Next speakers' }))
    expect(visibleSlides()).toEqual(['2 of 4'])
    expect(document.querySelector('[aria-live="polite"]')).toHaveTextContent('Showing speaker 2 of 4')
    await user.click(screen.getByRole('button', { name: 'Previous speakers' }))
    await user.click(screen.getByRole('button', { name: 'Previous speakers' }))
    expect(visibleSlides()).toEqual(['4 of 4'])
    await user.click(screen.getByRole('button', { name: 'Next speakers' }))
    expect(visibleSlides()).toEqual(['1 of 4'])
  })

  it('can page through as few as two speakers', () => {
    installViewport({ width: 375 })
    renderCarousel(2)
    expect(screen.getByRole('button', { name: 'Next speakers' })).toBeEnabled()
  })

  it('follows the viewport across the breakpoint', async () => {
    const { user } = renderCarousel(11)
    await user.click(screen.getByRole('button', { name: 'Next speakers' }))
    expect(visibleSlides()).toEqual(['4 of 11', '5 of 11', '6 of 11'])
    act(() => resizeViewport({ width: 768 }))
    expect(visibleSlides()).toEqual(['4 of 11'])
    act(() => resizeViewport({ width: 769 }))
    expect(visibleSlides()).toEqual(['4 of 11', '5 of 11', '6 of 11'])
  })
})

describe('speaker bios', () => {
  it('shows the first 50 characters with an ellipsis, and the whole bio after See More', async () => {
    const { user } = renderCarousel(3)
    const card = screen.getByRole('group', { name: '1 of 3' })
    expect(card).toHaveTextContent(`${longBio.slice(0, 50).trimEnd()}…`)
    expect(card).not.toHaveTextContent(longBio)

    const toggle = within(card).getByRole('button', { name: 'See More about Speaker 1' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')).toBeInTheDocument()
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(toggle).toHaveAccessibleName('See Less about Speaker 1')
    expect(card).toHaveTextContent(longBio)
    expect(card).not.toHaveTextContent('…')

    await user.click(toggle)
    expect(toggle).toHaveAccessibleName('See More about Speaker 1')
    expect(card).not.toHaveTextContent(longBio)
  })

  it('previews the plain text of a formatted bio, and shows its formatting and links in full', async () => {
    const bio = renderRichText([
      {
        _type: 'block',
        _key: 'b1',
        style: 'normal',
        markDefs: [{ _type: 'link', _key: 'site', href: 'https://example.org/thandi' }],
        children: [
          { _type: 'span', _key: 's1', text: 'Dr Thandi Mokoena ', marks: ['strong'] },
          { _type: 'span', _key: 's2', text: 'leads risk research', marks: ['em'] },
          { _type: 'span', _key: 's3', text: ' at a bank and writes at ', marks: [] },
          { _type: 'span', _key: 's4', text: 'her site', marks: ['site'] },
          { _type: 'span', _key: 's5', text: '.', marks: [] },
        ],
      },
    ])
    const user = userEvent.setup()
    render(<SpeakersCarousel speakers={[speaker(1, { bio })]} />)
    const card = screen.getByRole('group', { name: '1 of 1' })
    expect(card).toHaveTextContent('Dr Thandi Mokoena leads risk research at a bank an…')
    await user.click(within(card).getByRole('button', { name: 'See More about Speaker 1' }))
    expect(within(card).getByText('Dr Thandi Mokoena').tagName).toBe('STRONG')
    expect(within(card).getByText('leads risk research').tagName).toBe('EM')
    expect(within(card).getByRole('link', { name: 'her site' })).toHaveAttribute('href', 'https://example.org/thandi')
  })

  it('expands each card on its own', async () => {
    const { user } = renderCarousel(3)
    await user.click(screen.getByRole('button', { name: 'See More about Speaker 2' }))
    expect(screen.getByRole('group', { name: '2 of 3' })).toHaveTextContent(longBio)
    expect(screen.getByRole('group', { name: '1 of 3' })).not.toHaveTextContent(longBio)
    expect(screen.getByRole('button', { name: 'See More about Speaker 3' })).toHaveAttribute('aria-expanded', 'false')
  })

  it('has no toggle when the bio is empty or already short enough', () => {
    render(
      <SpeakersCarousel speakers={[speaker(1, { bio: null }), speaker(2, { bio: richText('   ') }), speaker(3, { bio: richText('Economist at a bank.') })]} />,
    )
    expect(screen.queryByRole('button', { name: /See More/ })).not.toBeInTheDocument()
    expect(screen.getByRole('group', { name: '3 of 3' })).toHaveTextContent('Economist at a bank.')
  })
})

describe('server rendering and hydration', () => {
  it('puts every speaker and every full bio in the HTML, marking the first desktop window', () => {
    const html = renderToString(<SpeakersCarousel speakers={speakers(5)} />)
    const container = document.createElement('div')
    container.innerHTML = html
    const slides = [...container.querySelectorAll('[role="group"]')]
    expect(slides).toHaveLength(5)
    expect(slides.map((slide) => slide.classList.contains('speakers__slide--visible'))).toEqual([true, true, true, false, false])
    expect(slides.some((slide) => slide.hasAttribute('hidden'))).toBe(false)
    expect(container.querySelectorAll('.speaker-card__bio-full')).toHaveLength(5)
    expect(container.querySelector('.speaker-card__bio-full')).toHaveTextContent(longBio)
  })

  it('hydrates without mismatches and then shows one speaker on a narrow screen', async () => {
    installViewport({ width: 375 })
    const container = document.createElement('div')
    container.innerHTML = renderToString(<SpeakersCarousel speakers={speakers(5)} />)
    document.body.append(container)
    const consoleError = vi.spyOn(console, 'error')
    const recoverableErrors: unknown[] = []
    const root = await act(async () =>
      hydrateRoot(container, <SpeakersCarousel speakers={speakers(5)} />, {
        onRecoverableError: (error) => recoverableErrors.push(error),
      }),
    )
    expect(recoverableErrors).toEqual([])
    expect(consoleError).not.toHaveBeenCalled()
    expect(visibleSlides()).toEqual(['1 of 5'])
    expect(container.querySelectorAll('.speaker-card__bio-full')).toHaveLength(0)
    act(() => root.unmount())
    container.remove()
  })
})
