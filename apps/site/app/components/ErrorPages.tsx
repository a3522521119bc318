import { Link } from 'react-router'

export function NotFoundPage() {
  return (
    <section className="status-page">
      <div className="status-page__card">
        <p className="eyebrow">Error 404</p>
        <h1>Page not found</h1>
        <p>The page you were looking for is not here. It may have moved, or the address may be mistyped.</p>
        <ul className="link-list">
          <li><Link className="button" to="/">Home</Link></li>
          <li><Link className="button button--secondary" to="/conference">Conferences</Link></li>
          <li><Link className="button button--secondary" to="/workshop">Workshops</Link></li>
          <li><Link className="button button--secondary" to="/#contact">Contact us</Link></li>
        </ul>
      </div>
    </section>
  )
}

export function ErrorPage({ error }: { error: unknown }) {
  if (import.meta.env.DEV) console.error(error)
  return (
    <section className="page-hero page-hero--plain">
      <h1>Something went wrong</h1>
      <p>We could not show this page just now. Please try again in a moment; if it keeps happening, contact us and we will help.</p>
      <ul className="link-list">
        <li><Link to="/">Home</Link></li>
        <li><Link to="/#contact">Contact us</Link></li>
      </ul>
    </section>
  )
}

export function UnavailablePage() {
  return (
    <section className="page-hero page-hero--plain">
      <h1>Temporarily unavailable</h1>
      <p>
        This page cannot be shown just now because part of our system is briefly out of reach. Please try again in a few
        minutes; what you sent us before is safe.
      </p>
      <ul className="link-list">
        <li><Link to="/">Home</Link></li>
        <li><Link to="/#contact">Contact us</Link></li>
      </ul>
    </section>
  )
}
