import { checkInScreen } from '@events/core'
import { data, Form, Link } from 'react-router'
import { CheckInDesk } from '../../components/admin/CheckInDesk'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formatAdminDay } from '../../lib/admin-format'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import { doorPost } from '../../lib/check-in.server'
import type { Route } from './+types/check-in'

export function meta({ loaderData }: Route.MetaArgs) {
  return adminMeta(loaderData ? `Check-in: ${loaderData.screen.event.title}` : 'Check-in')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const url = new URL(args.request.url)
  const search = url.searchParams.get('q') ?? ''
  const screen = await readBackOffice(args.context, (backOffice) =>
    checkInScreen(backOffice, args.params.eventId, { day: url.searchParams.get('day') ?? undefined, search }),
  )
  if (!screen) throw data('No such event or day.', { status: 404 })
  return data({ screen, search }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { answer, headers } = await doorPost(args)
  return data(answer, { status: answer.ok ? 200 : answer.status, headers })
}

export default function CheckIn({ loaderData, actionData, params }: Route.ComponentProps) {
  const { screen, search } = loaderData
  const base = `/admin/events/${encodeURIComponent(params.eventId)}/check-in`
  return (
    <>
      <h1>Check-in: {screen.event.title}</h1>
      {screen.days.length > 1 && (
        <nav aria-label="Event days" className="check-in-days">
          <ul className="admin-links">
            {screen.days.map((day, index) => (
              <li key={day}>
                <Link to={`${base}?day=${day}`} aria-current={day === screen.day ? 'page' : undefined}>
                  Day {index + 1}, {formatAdminDay(`${day}T12:00:00+02:00`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <CheckInDesk
        key={screen.day}
        eventId={params.eventId}
        day={screen.day}
        counts={screen.counts}
        delegates={screen.delegates}
        answer={actionData}
        liveUrl={`${base}/live`}
      >
        <Form method="get" className="form check-in-search" role="search">
          <input type="hidden" name="day" value={screen.day} />
          <FieldRow id="check-in-search" label="Name, company or reference">
            <input id="check-in-search" name="q" type="search" defaultValue={search} autoComplete="off" enterKeyHint="search" />
          </FieldRow>
          <SubmitButton secondary>Search</SubmitButton>
        </Form>
      </CheckInDesk>
    </>
  )
}
