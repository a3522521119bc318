import { useId, useState } from 'react'
import type { RichText } from '@events/content/browser'
import { previewBio } from './bio-preview'
import { RichTextHtml } from './RichTextHtml'
import { ContentImage } from './ContentImage'
import { carouselWindow, nextIndex, previousIndex } from './carousel-window'
import { useHydrated, useMediaQuery } from './enhancement'

/** Speaker cards show this many characters of the bio until See More is chosen. */
export const BIO_PREVIEW_LENGTH = 50
/** From this width the carousel shows three speakers at a time and steps by three; below it, one by one. */
export const WIDE_CAROUSEL_QUERY = '(min-width: 769px)'

export type SpeakerImage = { url: string | null; srcSet: string | null; width: number | null; height: number | null; alt: string | null }

/** Three photos side by side on wide screens, one at a time below. */
const SPEAKER_PHOTO_SIZES = `${WIDE_CAROUSEL_QUERY} 33vw, 100vw`

export type Speaker = {
  _id: string
  name: string | null
  position: string | null
  company: string | null
  /** The bio as the server rendered it; its plain text makes the preview. */
  bio: RichText | null
  image: SpeakerImage | null
}

function SpeakerCard({ speaker }: { speaker: Speaker }) {
  const bioId = useId()
  const hydrated = useHydrated()
  const [expanded, setExpanded] = useState(false)
  const bio = speaker.bio?.text.trim() ? speaker.bio : null
  const preview = previewBio(bio?.text, BIO_PREVIEW_LENGTH)
  const collapsed = preview.truncated && !expanded
  // Until hydration both texts are in the HTML and CSS shows the full one without JavaScript, the preview with it.
  const showPreview = collapsed || (preview.truncated && !hydrated)
  const showFull = !collapsed || !hydrated
  const { image } = speaker

  return (
    <article className="speaker-card">
      {image && <ContentImage className="speaker-card__photo" image={image} sizes={SPEAKER_PHOTO_SIZES} />}
      <h3 className="speaker-card__name">{speaker.name}</h3>
      {speaker.position && <p className="speaker-card__position">{speaker.position}</p>}
      {speaker.company && <p className="speaker-card__company">{speaker.company}</p>}
      {bio && (
        <div id={bioId} className={collapsed ? 'speaker-card__bio speaker-card__bio--collapsed' : 'speaker-card__bio'}>
          {showPreview && <p className="speaker-card__bio-preview">{preview.text}</p>}
          {showFull && <RichTextHtml className="speaker-card__bio-full" value={bio} />}
        </div>
      )}
      {preview.truncated && (
        <button type="button" className="speaker-card__toggle" aria-expanded={expanded} aria-controls={bioId} onClick={() => setExpanded((value) => !value)}>
          {expanded ? 'See Less' : 'See More'} <span className="visually-hidden">about {speaker.name}</span>
        </button>
      )}
    </article>
  )
}

function visibleRangeText(start: number, end: number, count: number) {
  return end - start === 1 ? `Showing speaker ${start + 1} of ${count}` : `Showing speakers ${start + 1} to ${end} of ${count}`
}

/**
 * The speakers of an event as a WAI-ARIA carousel: three at a time from 769 px wide, one at a time below, wrapping
 * at both ends. Without JavaScript every speaker is shown, with the full bio.
 */
/** The arrow that moves the carousel one step back or on; its name is for screen readers only. */
function StepButton({ direction, slidesId, disabled, onClick }: { direction: 'previous' | 'next'; slidesId: string; disabled: boolean; onClick: () => void }) {
  return (
    <button type="button" className="speakers__button" aria-controls={slidesId} disabled={disabled} onClick={onClick}>
      <span aria-hidden="true" className={`speakers__arrow speakers__arrow--${direction}`} />
      <span className="visually-hidden">{direction === 'previous' ? 'Previous speakers' : 'Next speakers'}</span>
    </button>
  )
}

export function SpeakersCarousel({ speakers }: { speakers: readonly Speaker[] }) {
  const headingId = useId()
  const slidesId = useId()
  const hydrated = useHydrated()
  // The server renders the desktop window; below 769 px, CSS shows only its first card until hydration.
  const wide = useMediaQuery(WIDE_CAROUSEL_QUERY, true)
  const perView = wide ? 3 : 1
  const [index, setIndex] = useState(0)
  // Only announced after the visitor moves the carousel, not when the page loads or hydrates.
  const [moved, setMoved] = useState(false)
  const count = speakers.length
  const { start, end } = carouselWindow(count, index, perView)

  function move(to: number) {
    setIndex(to)
    setMoved(true)
  }

  if (count === 0) return null

  return (
    <section className="speakers" aria-roledescription="carousel" aria-labelledby={headingId}>
      <div className="speakers__header">
        <h2 id={headingId} className="speakers__heading">
          Speakers
        </h2>
        <div className="speakers__controls">
          <StepButton direction="previous" slidesId={slidesId} disabled={count <= perView} onClick={() => move(previousIndex(count, start, perView))} />
          <StepButton direction="next" slidesId={slidesId} disabled={count <= perView} onClick={() => move(nextIndex(count, start, perView))} />
        </div>
      </div>
      <p className="visually-hidden speakers__status" aria-live="polite" aria-atomic="true">
        {moved ? visibleRangeText(start, end, count) : ''}
      </p>
      <div id={slidesId} className="speakers__slides">
        {speakers.map((speaker, position) => {
          const inWindow = position >= start && position < end
          return (
            <div
              key={speaker._id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${position + 1} of ${count}`}
              className={inWindow ? 'speakers__slide speakers__slide--visible' : 'speakers__slide'}
              hidden={hydrated && !inWindow}
            >
              <SpeakerCard speaker={speaker} />
            </div>
          )
        })}
      </div>
    </section>
  )
}
