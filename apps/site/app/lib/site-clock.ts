import { useRouteLoaderData } from 'react-router'
import type { loader as rootLoader } from '../root'

/** The business "now" the server used for this page (SITE_DATE aware), so server and browser agree on availability. */
export function useSiteNow(): Date {
  const root = useRouteLoaderData<typeof rootLoader>('root')
  return root ? new Date(root.now) : new Date()
}
