import type { PriceHeadlineText } from '../lib/event-headline'

/** "From R 5 490.00 excl. VAT per delegate", the early-bird deadline while it runs, and what the seats call for. */
export function PriceHeadline({ headline }: { headline: PriceHeadlineText }) {
  return (
    <div className="price-headline">
      <p className="price-headline__from">
        {/* Worded by the server (lib/event-headline.ts); the amount class keeps the figure on one line as <Amount> does. */}
        <span className="price-headline__label">From</span> <span className="amount">{headline.from}</span>{' '}
        <span className="price-headline__note">excl. VAT per delegate</span>
      </p>
      {headline.earlyBirdUntil && <p className="price-headline__early-bird">Early-bird price until {headline.earlyBirdUntil}</p>}
      {headline.seats && <p className="price-headline__seats">{headline.seats}</p>}
    </div>
  )
}
