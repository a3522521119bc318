import { checkInScreen } from '@events/core'
import { data, Form, Link, useLocation } from 'react-router'
import { CheckInDesk } from '../../components/admin/CheckInDesk'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formatAdminDay } from '../../lib/admin-format'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import { doorPost, type DoorAnswer } from '../../lib/check-in.server'
import type { Route } from './+types/check-in'

export function meta({ loaderData }: Route.MetaArgs) {
  return adminMeta(loaderData ? `Check-in: ${loaderData.screen.event.title}` : 'Check-in')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const url = new URL(args.request.url)
  const search = url.searchParams.get('q') ?? ''
  const page = Number(url.searchParams.get('page') ?? '1')
  const screen = await readBackOffice(args.context, (backOffice) =>
    checkInScreen(backOffice, args.params.eventId, { day: url.searchParams.get('day') ?? undefined, search, page }),
  )
  if (!screen) throw data('No such event or day.', { status: 404 })
  return data({ screen, search }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { answer, headers } = await doorPost(args)
  return data(answer, { status: answer.ok ? 200 : answer.status, headers })
}

function pageQuery(day: string, search: string, page: number): string {
  return new URLSearchParams({ day, ...(search === '' ? {} : { q: search }), page: String(page) }).toString()
}

export default function CheckIn({ loaderData, actionData, params }: Route.ComponentProps) {
  const { screen, search } = loaderData
  const base = `/admin/events/${encodeURIComponent(params.eventId)}/check-in`
  // The refusal that moved the desk to the server's day, shown on the new day so staff read why.
  const carried = (useLocation().state as { answer?: DoorAnswer } | null)?.answer
  const dayNumber = screen.days.indexOf(screen.day) + 1
  const recordsToday = screen.day === screen.today
  return (
    <>
      <h1>Check-in: {screen.event.title}</h1>
      <p className={recordsToday ? 'check-in-recording' : 'admin-error'} role="status" data-day={screen.day}>
        {recordsToday
          ? `Recording today: day ${dayNumber} of ${screen.days.length}, ${formatAdminDay(`${screen.day}T12:00:00+02:00`)}.`
          : screen.today < screen.day
            ? `Day ${dayNumber}, ${formatAdminDay(`${screen.day}T12:00:00+02:00`)}, has not come yet: nothing is recorded before it.`
            : `This screen shows day ${dayNumber}, ${formatAdminDay(`${screen.day}T12:00:00+02:00`)}, which is not today (${formatAdminDay(`${screen.today}T12:00:00+02:00`)}): check-ins are recorded only by a manager, with a reason.`}
      </p>
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
        days={screen.days}
        followsToday={screen.day >= screen.today}
        counts={screen.counts}
        delegates={screen.delegates}
        answer={actionData ?? carried}
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
      {screen.pages > 1 && (
        <nav aria-label="Pages of delegates" className="check-in-pages">
          <p>
            Page {screen.page} of {screen.pages}, {screen.matching} delegates
          </p>
          <ul className="admin-links">
            {screen.page > 1 && (
              <li>
                <Link to={`${base}?${pageQuery(screen.day, search, screen.page - 1)}`}>Previous page</Link>
              </li>
            )}
            {screen.page < screen.pages && (
              <li>
                <Link to={`${base}?${pageQuery(screen.day, search, screen.page + 1)}`}>Next page</Link>
              </li>
            )}
          </ul>
        </nav>
      )}
    </>
  )
}
