/** What an event is made of, as the desk lists it under the event: each part's documents by a GROQ filter. */
export interface EventPart {
  id: string
  title: string
  schemaType: string
  /** Selects the documents the event (its draft or its published version, `$eventId`) references in `field`. */
  filter: string
  ordering: { field: string; direction: 'asc' | 'desc' }[]
}

// The draft counts too, so a session or option just added to an unpublished change is listed at once.
const referencedBy = (schemaType: string, references: string) =>
  `_type == "${schemaType}" && _id in *[_id in [$eventId, "drafts." + $eventId]].${references}._ref`

export const EVENT_PARTS: readonly EventPart[] = [
  {
    id: 'agenda',
    title: 'Agenda sessions',
    schemaType: 'agendaSession',
    filter: referencedBy('agendaSession', 'agendaDays[].sessions[]'),
    ordering: [{ field: 'start', direction: 'asc' }],
  },
  {
    id: 'prices',
    title: 'Price options',
    schemaType: 'priceOption',
    filter: referencedBy('priceOption', 'priceOptions[]'),
    ordering: [{ field: 'amount', direction: 'desc' }],
  },
  {
    id: 'speakers',
    title: 'Speakers',
    schemaType: 'speaker',
    filter: referencedBy('speaker', 'speakers[]'),
    ordering: [{ field: 'name', direction: 'asc' }],
  },
  {
    id: 'sponsor-packages',
    title: 'Sponsor packages',
    schemaType: 'sponsorPackage',
    filter: referencedBy('sponsorPackage', 'sponsorPackages[]'),
    ordering: [{ field: 'rank', direction: 'asc' }],
  },
]
