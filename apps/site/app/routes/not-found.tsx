import type { Route } from './+types/not-found'
import { NotFoundPage } from '../components/ErrorPages'
import { throwRedirectOrNotFound } from '../lib/redirects.server'
import { servicesContext } from '../lib/services.server'

// Any path no other route matches: an editor's redirect moves it, or the loader throws and the root error boundary
// renders the 404 page; the component is what makes this a page route rather than a plain-text resource route.
export async function loader({ context, request }: Route.LoaderArgs) {
  return throwRedirectOrNotFound(context.get(servicesContext).content, request, 'Not found')
}

export default NotFoundPage
