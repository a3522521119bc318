/** A permanent move of a path of the site (and every path under it) to another, as an editor's redirect document says. */
export interface Redirect {
  from: string
  to: string
}

/** The redirect documents the redirects query read, those without both paths left out. */
export function redirectsOf(documents: ReadonlyArray<{ from: string | null; to: string | null }>): Redirect[] {
  return documents.flatMap(({ from, to }) => (from && to ? [{ from, to }] : []))
}

/** How many redirects a chain may follow before it is taken for a loop. */
const MAX_HOPS = 20

/** A path without its trailing slash, in lower case: the legacy event slugs are matched whatever their casing. */
function normalisePath(path: string): string {
  return (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase()
}

/** Where one redirect sends `pathname`: its target, with any sub-path kept (/conference/old/contact -> /conference/new/contact). */
function step(redirects: readonly Redirect[], pathname: string): string | undefined {
  const path = normalisePath(pathname)
  for (const redirect of redirects) {
    const from = normalisePath(redirect.from)
    if (path === from) return redirect.to
    if (path.startsWith(`${from}/`)) return `${redirect.to.replace(/\/+$/, '')}${pathname.slice(from.length)}`
  }
  return undefined
}

export type RedirectOutcome = { kind: 'none' } | { kind: 'redirect'; location: string } | { kind: 'loop'; paths: string[] }

/**
 * Follows the redirects from `pathname` to the path no redirect moves, so a chain (a slug renamed twice) is answered
 * with one hop. A chain that comes back to a path it passed is a loop and sends nowhere.
 */
export function followRedirects(redirects: readonly Redirect[], pathname: string): RedirectOutcome {
  const seen = [pathname]
  let current = pathname
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const next = step(redirects, current)
    if (next === undefined) return hop === 0 ? { kind: 'none' } : { kind: 'redirect', location: current }
    if (seen.some((path) => normalisePath(path) === normalisePath(next))) return { kind: 'loop', paths: [...seen, next] }
    seen.push(next)
    current = next
  }
  return { kind: 'loop', paths: seen }
}

/** The location to answer 301 with for `pathname`, or undefined when no redirect moves it (or its chain loops). */
export function redirectLocation(redirects: readonly Redirect[], pathname: string): string | undefined {
  const outcome = followRedirects(redirects, pathname)
  return outcome.kind === 'redirect' ? outcome.location : undefined
}

/** The paths of the event pages, one per kind of event. */
const EVENT_PAGE = /^\/(conference|workshop)\/([^/]+)$/

/**
 * The slug an event has now when `slug` is one it had before: the redirects lead its old event page
 * (/conference/{slug} or /workshop/{slug}) to an event page, of either kind (an event's kind may change too).
 * Undefined when they lead nowhere, round in a loop, or to a page that is not an event's.
 */
export function renamedEventSlug(redirects: readonly Redirect[], slug: string): string | undefined {
  for (const kind of ['conference', 'workshop']) {
    const page = EVENT_PAGE.exec(redirectLocation(redirects, `/${kind}/${slug}`) ?? '')
    if (page?.[2]) return page[2]
  }
  return undefined
}
