import { formatDay } from '@events/content/event-dates'
import { formatRand, headline, randsToCents } from '@events/pricing'

/** The part of an event the headline needs, as the content queries return it (prices in rands). */
export interface HeadlineSource {
  start: string | null
  registrationClosesAt: string | null
  priceOptions: ReadonlyArray<{ key: string | null; amount: number | null; earlyBirdUntil: string | null }> | null
}

/** An event's headline as the page shows it: "R 5 490.00", and the last early-bird day as "13 June 2025". */
export interface PriceHeadlineText {
  from: string
  earlyBirdUntil?: string
  /** What the event's seats call for: "Only 4 seats left at the venue", "Sold out at the venue", "Sold out: join…". */
  seats?: string
  /** No seat of any kind is left: the early-bird line goes, and the call to act is the waiting list. */
  soldOut?: boolean
}

/**
 * The headline with what the seats call for, when they call for anything (lib/seats.server.ts words it); a sold-out
 * event offers no early-bird.
 */
export function withSeatNotice(headline: PriceHeadlineText | undefined, seats: string | undefined, soldOut = false): PriceHeadlineText | undefined {
  if (!headline) return headline
  if (soldOut) {
    const { earlyBirdUntil: _offeredNoMore, ...rest } = headline
    return { ...rest, soldOut, ...(seats ? { seats } : {}) }
  }
  return seats ? { ...headline, seats } : headline
}

/**
 * The "from R …" and running early-bird of an event at the business clock's `now`, worded on the server so the
 * pricing rules stay out of the pages' JavaScript; undefined once registration has closed.
 */
export function eventHeadline(event: HeadlineSource, now: Date): PriceHeadlineText | undefined {
  if (!event.start) return undefined
  const options = (event.priceOptions ?? []).map((option) => ({
    key: option.key,
    amountCents: randsToCents(option.amount ?? 0),
    earlyBirdUntil: option.earlyBirdUntil,
  }))
  const found = headline(options, { start: event.start, registrationClosesAt: event.registrationClosesAt }, now)
  if (!found) return undefined
  return {
    from: formatRand(found.fromCents),
    ...(found.earlyBirdUntil ? { earlyBirdUntil: formatDay(new Date(`${found.earlyBirdUntil}T12:00:00+02:00`)) } : {}),
  }
}
