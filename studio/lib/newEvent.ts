import type { OptionKey } from '@events/pricing'
import type { ContentDocument } from './rules.ts'

export type EventKind = 'conference' | 'workshop'

/** The tabs a new event starts with; workshops sell no tables and usually list no speakers. */
export const DEFAULT_TABS: Record<EventKind, string[]> = {
  conference: ['overview', 'agenda', 'register', 'speakers', 'sponsor'],
  workshop: ['overview', 'agenda', 'register', 'sponsor'],
}

/** The usual prices (rand excl. VAT), a starting point the events team adjusts per event. */
export const STANDARD_PRICES: Record<EventKind, Partial<Record<OptionKey, number>>> = {
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

/**
 * The standard price options an event of this kind lacks (by key), as new documents titled after the event,
 * and the references to append to its price options; the early-bird one still needs its last day. `newId`
 * supplies the ids of the new documents.
 */
export function standardPriceOptions(
  event: { kind?: string; title?: string },
  existingKeys: readonly string[],
  newId: () => string,
): { priceOptions: ContentDocument[]; references: { _key: string; _type: string; _ref: string }[] } {
  const prices = STANDARD_PRICES[event.kind === 'workshop' ? 'workshop' : 'conference']
  const priceOptions = Object.entries(prices)
    .filter(([key]) => !existingKeys.includes(key))
    .map(([key, amount]) => {
      const label = OPTION_LABELS[key as OptionKey]
      return {
        _id: newId(),
        _type: 'priceOption',
        title: `${event.title || 'New event'} — ${label}`,
        key,
        label,
        amount,
      }
    })
  return { priceOptions, references: priceOptions.map((option) => reference(option._id)) }
}
