/**
 * The shared documents an event uses, as the desk lists them under the event: each part's documents by a GROQ filter.
 * (Its agenda and price options are fields of the event itself.)
 */
export interface EventPart {
  id: string
  title: string
  schemaType: string
  /** Selects the documents the event (its draft or its published version, `$eventId`) references in `field`. */
  filter: string
  ordering: { field: string; direction: 'asc' | 'desc' }[]
}

// The draft counts too, so a speaker just added to an unpublished change is listed at once.
const referencedBy = (schemaType: string, references: string) =>
  `_type == "${schemaType}" && _id in *[_id in [$eventId, "drafts." + $eventId]].${references}._ref`

export const EVENT_PARTS: readonly EventPart[] = [
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
