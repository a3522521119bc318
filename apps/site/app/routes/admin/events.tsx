import { delegateListEvents, eventSeatFigures, formatEventDays, waitingListLengths } from '@events/core'
import { data, Link } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { seatsTakenText } from '../../lib/admin-format'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/events'
import { AdminTable } from '../../components/admin/AdminTable'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Events and delegate lists')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { events, seats, waiting } = await readBackOffice(args.context, async (backOffice) => {
    const listed = await delegateListEvents(backOffice)
    return {
      events: listed,
      seats: await eventSeatFigures(
        backOffice,
        listed.map((event) => ({ eventId: event.id, eventSlug: event.slug })),
      ),
      waiting: await waitingListLengths(
        backOffice.db.kysely,
        listed.map((event) => event.id),
      ),
    }
  })
  return data(
    {
      events: events.map((event) => ({
        ...event,
        days: formatEventDays(event.start, event.end),
        seats: seatsTakenText(seats.get(event.id)!),
        waitingList: waiting.get(event.id) ?? 0,
      })),
    },
    { headers },
  )
}

export default function Events({ loaderData }: Route.ComponentProps) {
  const { events } = loaderData
  return (
    <>
      <h1>Events and delegate lists</h1>
      <p>
        Every event with registrations: those still to come first, then past ones. The counts and lists hold the delegates still attending, with their
        registration’s payment status; cancelled ones are left out.
      </p>
      {events.length === 0 ? (
        <p>No event has a registration yet.</p>
      ) : (
        <AdminTable caption="Events with their delegates and the delegate lists to download" columns={['Event', 'Delegates', 'Downloads']}>
          {events.map((event) => {
            const base = `/admin/events/${encodeURIComponent(event.id)}`
            return (
              <tr key={event.id}>
                {/* Three columns, the dates under the title, so the table fits a phone's width. */}
                <th scope="row">
                  {event.title}
                  {event.past ? ' (past)' : ''}
                  <br />
                  <span className="admin-table__detail">{event.days}</span>
                </th>
                <td>
                  {event.delegates}
                  <br />
                  <span className="admin-table__detail">
                    in {event.registrations} {event.registrations === 1 ? 'registration' : 'registrations'}
                  </span>
                  <br />
                  <span className="admin-table__detail">Seats: {event.seats}</span>
                  <br />
                  <span className="admin-table__detail">
                    <Link to={`${base}/waiting-list`} aria-label={`Waiting list: ${event.waitingList} for ${event.title}`}>
                      Waiting list: {event.waitingList}
                    </Link>
                  </span>
                </td>
                <td>
                  <ul className="admin-links">
                    {/* Plain links: the files come from resource routes, which the router must not fetch as pages. */}
                    <li>
                      <a href={`${base}/delegates.csv`} download aria-label={`Delegate list of ${event.title} as CSV`}>
                        CSV
                      </a>
                    </li>
                    <li>
                      <a href={`${base}/delegates.xlsx`} download aria-label={`Delegate list of ${event.title} as Excel`}>
                        Excel
                      </a>
                    </li>
                    <li>
                      <Link to={`${base}/check-in`} aria-label={`Check-in at the door of ${event.title}`}>
                        Check-in
                      </Link>
                    </li>
                    <li>
                      <Link to={`${base}/joining`} aria-label={`Joining instructions of ${event.title}`}>
                        Joining instructions
                      </Link>
                    </li>
                    <li>
                      <Link to={`${base}/messages`} aria-label={`Messages to delegates of ${event.title}`}>
                        Messages to delegates
                      </Link>
                    </li>
                    <li>
                      <Link to={`${base}/certificates`} aria-label={`Certificates of ${event.title}`}>
                        Certificates
                      </Link>
                    </li>
                    <li>
                      <a href={`${base}/attendance-register.pdf`} aria-label={`Attendance register (PDF) of ${event.title}`}>
                        Attendance register (PDF)
                      </a>
                    </li>
                  </ul>
                </td>
              </tr>
            )
          })}
        </AdminTable>
      )}
      <BackOfficeHomeLink />
    </>
  )
}
