/** The page's pathname in a loader or action: React Router's data requests (client navigation, fetchers) add '.data'. */
export function pagePathname(request: Request): string {
  return new URL(request.url).pathname.replace(/\.data$/, '')
}

/** The first segment of the page's path: the slug of a content or training page ('/terms' -> 'terms'). */
export function pageSlug(request: Request): string {
  return pagePathname(request).split('/')[1] ?? ''
}
