import { CalendarIcon, DocumentIcon, StarIcon, UserIcon } from '@sanity/icons'
import type { StructureBuilder, StructureResolver } from 'sanity/structure'
import { SANITY_API_VERSION } from './lib/apiVersion.ts'
import { EVENT_PARTS } from './lib/eventParts.ts'
import { SITE_SETTINGS_ID } from './lib/siteSettingsId.ts'

const PART_ICONS: Record<string, typeof CalendarIcon> = {
  speakers: UserIcon,
  'sponsor-packages': StarIcon,
}

/** One event: the event itself (with its agenda and price options), then the speakers and sponsor packages it uses. */
function eventItems(S: StructureBuilder, eventId: string) {
  return S.list()
    .title('Event')
    .items([
      S.listItem().title('Event').id('event').icon(DocumentIcon).child(S.document().schemaType('event').documentId(eventId)),
      S.divider(),
      ...EVENT_PARTS.map((part) =>
        S.listItem()
          .title(part.title)
          .id(part.id)
          .icon(PART_ICONS[part.id])
          .child(
            S.documentList()
              .title(part.title)
              .schemaType(part.schemaType)
              .apiVersion(SANITY_API_VERSION)
              .filter(part.filter)
              .params({ eventId })
              .defaultOrdering(part.ordering),
          ),
      ),
    ])
}

/**
 * Document lists in the order editors need them: the site settings as one fixed document at the top, then
 * the events, each opening onto the event and the speakers and sponsor packages it uses.
 */
export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items([
      S.listItem()
        .title('Site settings')
        .id(SITE_SETTINGS_ID)
        .schemaType('siteSettings')
        .child(S.document().schemaType('siteSettings').documentId(SITE_SETTINGS_ID).title('Site settings')),
      S.divider(),
      S.listItem()
        .title('Events')
        .id('events')
        .icon(CalendarIcon)
        .schemaType('event')
        .child(
          S.documentTypeList('event')
            .title('Events')
            .defaultOrdering([{ field: 'start', direction: 'desc' }])
            .child((eventId) => eventItems(S, eventId)),
        ),
      S.documentTypeListItem('page').title('Pages'),
      S.documentTypeListItem('speaker').title('All speakers'),
      S.documentTypeListItem('sponsorPackage').title('All sponsor packages'),
      S.documentTypeListItem('division').title('Divisions'),
      S.documentTypeListItem('redirect').title('Redirects'),
    ])
