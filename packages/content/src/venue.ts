/** The part of an event's venue a line of text needs; the address is optional in older registrations. */
export interface VenueParts {
  name?: string | null
  address?: string | null
}

/**
 * The one way a venue is written, on the cards, the event page, e-mails, calendar files and PDFs: its name, then its
 * address ("Indaba Hotel, Fourways, Sandton, Johannesburg"), leaving out what is empty.
 */
export function venueLabel(venue: VenueParts | null | undefined): string {
  return [venue?.name, venue?.address]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(', ')
}
