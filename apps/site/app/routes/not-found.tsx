import { data } from 'react-router'
import type { Route } from './+types/not-found'
import { NotFoundPage } from '../components/ErrorPages'
import { throwRedirectOrNotFound } from '../lib/redirects.server'
import { servicesContext } from '../lib/services.server'

// Any path no other route matches: an editor's redirect moves it, or the loader throws and the root error boundary
// renders the 404 page; the component is what makes this a page route rather than a plain-text resource route.
export async function loader({ context, request }: Route.LoaderArgs) {
  return throwRedirectOrNotFound(context.get(servicesContext).content, request, 'Not found')
}

// A post to such a path (a probe, or a form left open on a page since removed) gets the same 404 page, not a 405.
export function action(): never {
  throw data('Not found', { status: 404 })
}

export default NotFoundPage
