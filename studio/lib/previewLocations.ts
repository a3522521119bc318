/** The pages of the site that show a document, for the Presentation tool's "Used on" list. Plain functions, no studio imports. */

interface PreviewLocation {
  title: string
  href: string
}

export interface PreviewLocations {
  locations?: PreviewLocation[]
  message?: string
  tone?: 'positive' | 'caution' | 'critical'
}

export interface EventLocationFields {
  title?: string | null
  kind?: string | null
  slug?: string | null
  listed?: boolean | null
}

export interface PageLocationFields {
  title?: string | null
  slug?: string | null
}

const LISTING_TITLES: Record<string, string> = { conference: 'Conferences', workshop: 'Workshops' }

/** An event opens its own page (`/conference/pfas`) and, when its card is listed, its listing (`/conference`). */
export function eventLocations(event: EventLocationFields | null): PreviewLocations | null {
  if (!event?.kind || !(event.kind in LISTING_TITLES)) return null
  if (!event.slug) return { message: 'Give the event a slug to preview its page.', tone: 'caution' }
  const locations: PreviewLocation[] = [{ title: event.title || 'Untitled event', href: `/${event.kind}/${event.slug}` }]
  if (event.listed === true) locations.push({ title: LISTING_TITLES[event.kind]!, href: `/${event.kind}` })
  return { locations }
}

/** A page opens the route its slug names; the home page is `/`. */
export function pageLocations(page: PageLocationFields | null): PreviewLocations | null {
  if (!page?.slug) return null
  return { locations: [{ title: page.title || page.slug, href: page.slug === 'home' ? '/' : `/${page.slug}` }] }
}

/** The site settings (header, footer, company details) show on every page; the home page stands for them. */
export function siteSettingsLocations(): PreviewLocations {
  return { locations: [{ title: 'Home', href: '/' }], message: 'Shown in the header and footer of every page.', tone: 'positive' }
}
