import { checkInCounts, doorList, doorToday } from '@events/core'
import { requireStaffMember } from '../../lib/admin.server'
import { doorPost } from '../../lib/check-in.server'
import { readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/check-in-live'

// The check-in desk's JSON: the day's counts, polled so every staff device at the door sees the others' check-ins;
// with `list=1`, the event's passes as the door judges them offline (kept on the device); and the check-ins and undos
// the desk sends with JavaScript (scans, queued ones included).
const noStore = { 'Cache-Control': 'private, no-store' }

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const url = new URL(args.request.url)
  const day = url.searchParams.get('day') ?? ''
  if (url.searchParams.get('list') === '1') {
    const entries = await readBackOffice(args.context, (backOffice) => doorList(backOffice.db.kysely, args.params.eventId, day))
    return Response.json({ entries }, { headers: withSetCookies(noStore, headers) })
  }
  // The server's day rides with the counts: the desk polls it and moves to a new day without a reload.
  const counts = await readBackOffice(args.context, async (backOffice) => ({
    ...(await checkInCounts(backOffice.db.kysely, args.params.eventId, day)),
    today: doorToday(backOffice),
  }))
  return Response.json(counts, { headers: withSetCookies(noStore, headers) })
}

export async function action(args: Route.ActionArgs) {
  const { answer, headers } = await doorPost(args)
  return Response.json(answer, { status: answer.ok ? 200 : answer.status, headers: withSetCookies(noStore, headers) })
}

function withSetCookies(base: Record<string, string>, session: Headers): Headers {
  const headers = new Headers(base)
  for (const cookie of session.getSetCookie()) headers.append('Set-Cookie', cookie)
  return headers
}
