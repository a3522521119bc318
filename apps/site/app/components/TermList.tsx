import { Fragment, type ReactNode } from 'react'

/** One line of a description list: the term and what it says. */
export type Term = readonly [term: string, value: ReactNode]

/** Terms and their values as a description list, styled by the class given (e.g. `bank-details`, `admin-facts`). */
export function TermList({ className, terms }: { className: string; terms: readonly Term[] }) {
  return (
    <dl className={className}>
      {terms.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  )
}
