/** The page's pathname in a loader or action: React Router's data requests (client navigation, fetchers) add '.data'. */
export function pagePathname(request: Request): string {
  return new URL(request.url).pathname.replace(/\.data$/, '')
}

/** The first segment of the page's path: the slug of a content or training page ('/terms' -> 'terms'). */
export function pageSlug(request: Request): string {
  return pagePathname(request).split('/')[1] ?? ''
}

/** The id of an event page's tabs: links to a tab land there, so the opened tab is in view. */
export const EVENT_SECTIONS_ID = 'event-sections'

/** The link that opens an event page on its Register tab, with or without JavaScript. */
export function registerTabHref(eventPath: string): string {
  return `${eventPath}?tab=register#${EVENT_SECTIONS_ID}`
}
