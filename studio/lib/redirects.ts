import { followRedirects, type Redirect } from '@events/content/redirects'

/** An event's address: its kind and slug. */
export interface EventAddress {
  kind?: string
  slug?: string
}

/** A redirect document as stored. */
export interface RedirectDocument extends Redirect {
  _id: string
}

/** What publishing a renamed event does to the redirects. */
export interface RedirectChanges {
  /** The redirect from the published path to the new one. */
  create: Redirect
  /** Redirects that pointed at the published path, now sent straight to the new one (no chains). */
  retarget: { _id: string; to: string }[]
  /** Redirects from the new path (the event gets back an earlier slug): they would now loop. */
  remove: string[]
}

/** The path of an event's page, or undefined when its kind or slug is missing. */
function eventPath({ kind, slug }: EventAddress): string | undefined {
  return kind && slug ? `/${kind}/${slug}` : undefined
}

const samePath = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * The redirects to write when an event is published with another slug or kind than its published version, or
 * undefined when its path stays (a change of casing only is already answered by the site).
 */
export function redirectChangesForRename(published: EventAddress, next: EventAddress, existing: RedirectDocument[]): RedirectChanges | undefined {
  const from = eventPath(published)
  const to = eventPath(next)
  if (from === undefined || to === undefined || samePath(from, to)) return undefined
  return {
    create: { from, to },
    retarget: existing.filter((redirect) => samePath(redirect.to, from) && !samePath(redirect.from, to)).map((redirect) => ({ _id: redirect._id, to })),
    remove: existing.filter((redirect) => samePath(redirect.from, to)).map((redirect) => redirect._id),
  }
}

/** The pages of the site that no content document names. */
const FIXED_PATHS = ['/', '/conference', '/workshop', '/sponsorship/contact']
/** Content pages that also have a request form under them. */
const TRAINING_PAGES = new Set(['inhouse-training', 'online-training'])

/** The paths the site answers, from its events (page, contact form, calendar file) and its content pages. */
export function sitePaths(events: EventAddress[], pageSlugs: string[]): Set<string> {
  const paths = [
    ...FIXED_PATHS,
    ...events.flatMap((event) => {
      const path = eventPath(event)
      return path === undefined ? [] : [path, `${path}/contact`, `${path}/calendar.ics`]
    }),
    ...pageSlugs.flatMap((slug) => (slug === 'home' ? [] : TRAINING_PAGES.has(slug) ? [`/${slug}`, `/${slug}/request`] : [`/${slug}`])),
  ]
  return new Set(paths.map((path) => path.toLowerCase()))
}

/** Why a redirect cannot work: paths that are not site paths, a loop, or a target the site does not answer. */
export function checkRedirect(redirect: Partial<Redirect>, allRedirects: Redirect[], paths: Set<string>): string[] {
  const { from, to } = redirect
  if (!from || !to) return []
  const notPaths = [from, to].filter((path) => !path.startsWith('/')).map((path) => `"${path}" is not a path of this site; start it with "/"`)
  if (notPaths.length > 0) return notPaths
  const outcome = followRedirects(allRedirects, from)
  if (outcome.kind === 'loop') return [`These redirects go round in a loop: ${outcome.paths.join(' → ')}`]
  const target = (outcome.kind === 'redirect' ? outcome.location : to).replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1')
  return paths.has(target.toLowerCase()) ? [] : [`Nothing on the site is at ${target}: point the redirect at an existing event or page`]
}
