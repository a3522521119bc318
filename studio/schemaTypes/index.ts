import { agendaSession } from './agendaSession.ts'
import { division } from './division.ts'
import { event } from './event.ts'
import { page } from './page.ts'
import { priceOption } from './priceOption.ts'
import { redirect } from './redirect.ts'
import { siteSettings } from './siteSettings.ts'
import { speaker } from './speaker.ts'
import { sponsorPackage } from './sponsorPackage.ts'

/** Every document type of the studio; the names are the content model the site's queries use. */
export const schemaTypes = [siteSettings, event, page, speaker, agendaSession, priceOption, sponsorPackage, division, redirect]
