import type { ReactNode } from 'react'
import { Link } from 'react-router'

/** The card every error page shares: what happened in the visitor's words, and ways onwards. */
function StatusCard({ eyebrow, title, children }: { eyebrow: string; title: string; children: ReactNode }) {
  return (
    <section className="status-page">
      <div className="status-page__card">
        <p className="eyebrow">{eyebrow}</p>
        <h1>{title}</h1>
        <p>{children}</p>
        <ul className="link-list">
          <li>
            <Link className="button" to="/">
              Home
            </Link>
          </li>
          <li>
            <Link className="button button--secondary" to="/conference">
              Conferences
            </Link>
          </li>
          <li>
            <Link className="button button--secondary" to="/workshop">
              Workshops
            </Link>
          </li>
          <li>
            <Link className="button button--secondary" to="/#contact">
              Contact us
            </Link>
          </li>
        </ul>
      </div>
    </section>
  )
}

export function NotFoundPage() {
  return (
    <StatusCard eyebrow="Error 404" title="Page not found">
      The page you were looking for is not here. It may have moved, or the address may be mistyped.
    </StatusCard>
  )
}

export function ErrorPage({ error }: { error: unknown }) {
  if (import.meta.env.DEV) console.error(error)
  return (
    <StatusCard eyebrow="Error 500" title="Something went wrong">
      We could not show this page just now. Please try again in a moment; if it keeps happening, contact us and we will help.
    </StatusCard>
  )
}

export function UnavailablePage() {
  return (
    <StatusCard eyebrow="Error 503" title="Temporarily unavailable">
      This page cannot be shown just now because part of our system is briefly out of reach. Please try again in a few minutes; what you sent us before is safe.
    </StatusCard>
  )
}
