import { useState } from 'react'
import { ContentImage } from './ContentImage'

export type CompanyLogo = {
  _key: string
  /** The company's name. */
  alt: string | null
  url: string | null
  srcSet: string | null
  width: number | null
  height: number | null
}

/** Logos are shown 3rem high; a wide one is about three times that. */
const LOGO_SIZES = '10rem'

/** The strip loops by sliding one copy's width, so it needs copies enough to fill wide screens while it moves. */
const COPIES = 3

function LogoList({ logos, copy }: { logos: readonly CompanyLogo[]; copy: number }) {
  const isOriginal = copy === 0
  return (
    <ul
      className={isOriginal ? 'logo-strip__list' : 'logo-strip__list logo-strip__list--copy'}
      aria-label={isOriginal ? 'Participating companies' : undefined}
      aria-hidden={isOriginal ? undefined : true}
      inert={!isOriginal}
    >
      {logos.map((logo) => (
        <li key={logo._key} className="logo-strip__item">
          <ContentImage image={logo} alt={isOriginal ? undefined : ''} sizes={LOGO_SIZES} />
        </li>
      ))}
    </ul>
  )
}

/**
 * Participating-company logos sliding in an endless loop. The loop pauses on hover, on keyboard focus and with the
 * pause button; with reduced motion or without JavaScript the logos stand still in a wrapped row.
 */
export function LogoStrip({ logos }: { logos: readonly CompanyLogo[] }) {
  const [paused, setPaused] = useState(false)
  const shown = logos.filter((logo) => logo.url)
  if (shown.length === 0) return null

  return (
    <div
      className={paused ? 'logo-strip logo-strip--paused' : 'logo-strip'}
      // Set through the CSSOM rather than a style attribute, which the Content-Security-Policy does not allow.
      ref={(node) => node?.style.setProperty('--logo-count', String(shown.length))}
    >
      <button type="button" className="logo-strip__pause" aria-pressed={paused} onClick={() => setPaused((value) => !value)}>
        Pause logo animation
      </button>
      <div className="logo-strip__viewport">
        <div className="logo-strip__track">
          {Array.from({ length: COPIES }, (_, copy) => (
            <LogoList key={copy} logos={shown} copy={copy} />
          ))}
        </div>
      </div>
    </div>
  )
}
