import { Link } from 'react-router'

/** A link to a neighbouring page of a long list, and its words ("Older entries"). */
export interface PageLink {
  to: string
  text: string
}

/** The links to the previous and next pages of a back-office list, either of them left out at an end of the list. */
export function AdminPager({ label, previous, next }: { label: string; previous?: PageLink | undefined; next?: PageLink | undefined }) {
  return (
    <nav aria-label={label}>
      <ul className="admin-links">
        {previous ? <PagerLink link={previous} rel="prev" /> : null}
        {next ? <PagerLink link={next} rel="next" /> : null}
      </ul>
    </nav>
  )
}

function PagerLink({ link, rel }: { link: PageLink; rel: 'prev' | 'next' }) {
  return (
    <li>
      <Link to={link.to} rel={rel}>
        {link.text}
      </Link>
    </li>
  )
}
