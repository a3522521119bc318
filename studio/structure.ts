import type { StructureResolver } from 'sanity/structure'
import { SITE_SETTINGS_ID } from './schemaTypes/siteSettings.ts'

/** Document lists in the order editors need them, with the site settings as one fixed document at the top. */
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
      S.documentTypeListItem('event').title('Events'),
      S.documentTypeListItem('page').title('Pages'),
      S.documentTypeListItem('speaker').title('Speakers'),
      S.documentTypeListItem('agendaSession').title('Agenda sessions'),
      S.documentTypeListItem('priceOption').title('Price options'),
      S.documentTypeListItem('sponsorPackage').title('Sponsor packages'),
      S.documentTypeListItem('division').title('Divisions'),
    ])
