import { useState, type CSSProperties } from 'react'

export type CompanyLogo = {
  _key: string
  /** The company's name. */
  alt: string | null
  url: string | null
  width: number | null
  height: number | null
}

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
          <img
            src={logo.url ?? undefined}
            width={logo.width ?? undefined}
            height={logo.height ?? undefined}
            alt={isOriginal ? (logo.alt ?? '') : ''}
            loading="lazy"
            decoding="async"
          />
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
      style={{ '--logo-count': shown.length } as CSSProperties}
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
