import { useRouteLoaderData } from 'react-router'

/** The business "now" the server used for this page (SITE_DATE aware), so server and browser agree on availability. */
export function useSiteNow(): Date {
  const root = useRouteLoaderData('root') as { now: string } | undefined
  return root ? new Date(root.now) : new Date()
}
