import type { OptionKey } from '@events/pricing'

export type EventKind = 'conference' | 'workshop'

/** The tabs a new event starts with; workshops sell no tables and usually list no speakers. */
const DEFAULT_TABS: Record<EventKind, string[]> = {
  conference: ['overview', 'agenda', 'register', 'speakers', 'sponsor'],
  workshop: ['overview', 'agenda', 'register', 'sponsor'],
}

/** The usual prices (rand excl. VAT), a starting point the events team adjusts per event. */
const STANDARD_PRICES: Record<EventKind, Partial<Record<OptionKey, number>>> = {
  conference: { venue: 7990, 'early-bird': 6990, online: 5490, 'table-5': 34950, 'table-10': 59900 },
  workshop: { venue: 7990, 'early-bird': 6990, online: 5490 },
}

const OPTION_LABELS: Record<OptionKey, string> = {
  venue: 'Venue',
  'early-bird': 'Early-bird',
  online: 'Online',
  'table-5': 'Table of 5 delegates',
  'table-10': 'Table of 10 delegates',
}

const reference = (id: string) => ({ _key: id, _type: 'reference', _ref: id })

/** What "New conference" and "New workshop" start from: the kind, its default tabs and the shared sponsor packages. */
export function newEventValue(kind: EventKind, sponsorPackageIds: string[]): Record<string, unknown> {
  return {
    kind,
    format: 'in-person',
    tabs: DEFAULT_TABS[kind],
    card: { listed: true },
    sponsorPackages: sponsorPackageIds.map(reference),
  }
}

/** A price option as the event holds it: an item of its price options. */
export type PriceOptionItem = { _key: string; _type: 'priceOption'; key: OptionKey; label: string; amount: number }

/**
 * The standard price options an event of this kind lacks (by key), as items to append to its price options; the
 * early-bird one still needs its last day. `newKey` supplies the items' keys.
 */
export function standardPriceOptions(event: { kind?: string; priceOptions?: { key?: string }[] }, newKey: () => string): PriceOptionItem[] {
  const existingKeys = new Set((event.priceOptions ?? []).map((option) => option.key))
  const prices = STANDARD_PRICES[event.kind === 'workshop' ? 'workshop' : 'conference']
  return (Object.entries(prices) as [OptionKey, number][])
    .filter(([key]) => !existingKeys.has(key))
    .map(([key, amount]) => ({ _key: newKey(), _type: 'priceOption', key, label: OPTION_LABELS[key], amount }))
}
