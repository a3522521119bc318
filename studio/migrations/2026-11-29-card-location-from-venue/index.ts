// `sanity migration run 2026-11-29-card-location-from-venue` (from studio/): an event's listing card no longer holds
// a location of its own; cards print the event's venue, so a card and its page cannot name the venue differently.
import { at, defineMigration, unset } from 'sanity/migrate'

export default defineMigration({
  title: 'Listing cards print the event’s venue (card.location removed)',
  documentTypes: ['event'],
  migrate: {
    document(event) {
      const card = event.card as { location?: unknown } | undefined
      return card?.location === undefined ? undefined : at('card.location', unset())
    },
  },
})
