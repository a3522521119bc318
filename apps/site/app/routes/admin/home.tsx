import { dashboard } from '@events/core'
import { seatsTakenText } from '../../lib/admin-format'
import { data, Form, Link } from 'react-router'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { AmountCell } from '../../components/admin/AmountCell'
import { clearDoorLists } from '../../components/admin/check-in-list'
import { SubmitButton } from '../../components/admin/FormControls'
import { TermList } from '../../components/TermList'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/home'

export function meta() {
  return adminMeta('Home')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const figures = await readBackOffice(args.context, dashboard)
  return data(
    { name: user.name, email: user.email, role: user.role, twoFactorEnabled: user.twoFactorEnabled, events: figures.events, outbox: figures.outbox },
    { headers },
  )
}

const ROLE_NAMES = { owner: 'Owner', manager: 'Manager', staff: 'Staff' } as const

/** "3 minutes", "2 hours": how long the oldest e-mail has waited, to the unit that matters. */
function waitedFor(seconds: number): string {
  const [amount, unit] = seconds < 120 ? [seconds, 'second'] : seconds < 7200 ? [seconds / 60, 'minute'] : [seconds / 3600, 'hour']
  const whole = Math.floor(amount)
  return `${whole} ${unit}${whole === 1 ? '' : 's'}`
}

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const owner = loaderData.role === 'owner'
  const { events, outbox } = loaderData
  return (
    <>
      <h1>Back office</h1>
      <p>
        Signed in as <strong>{loaderData.name}</strong> ({loaderData.email}), role: <strong>{ROLE_NAMES[loaderData.role]}</strong>.
      </p>
      <nav aria-label="Back office">
        <ul className="admin-links">
          <li>
            <Link to="/admin/registrations">Registrations</Link>
          </li>
          <li>
            <Link to="/admin/emails">E-mails</Link>
          </li>
          <li>
            <Link to="/admin/enquiries">Enquiries</Link>
          </li>
          <li>
            <Link to="/admin/bank-statements">Bank statements</Link>
          </li>
          <li>
            <Link to="/admin/overdue">Overdue</Link>
          </li>
          <li>
            <Link to="/admin/quotes">Quotations</Link>
          </li>
          <li>
            <Link to="/admin/sponsorship">Sponsorship and discount codes</Link>
          </li>
          <li>
            <Link to="/admin/statements">Statements of account</Link>
          </li>
          <li>
            <Link to="/admin/refunds">Refunds to pay out</Link>
          </li>
          <li>
            <Link to="/admin/reports">Finance reports</Link>
          </li>
          <li>
            <Link to="/admin/data-requests">Personal data requests</Link>
          </li>
          <li>
            <Link to="/admin/account">Your account: password and sessions</Link>
          </li>
          <li>
            <Link to="/admin/two-factor">Two-factor sign-in ({loaderData.twoFactorEnabled ? 'on' : 'off'})</Link>
          </li>
          {owner ? (
            <>
              <li>
                <Link to="/admin/staff">Staff accounts</Link>
              </li>
              <li>
                <Link to="/admin/audit">Audit log</Link>
              </li>
            </>
          ) : null}
        </ul>
      </nav>

      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Upcoming events</h2>
        {events.length === 0 ? (
          <p>No upcoming event has registrations yet.</p>
        ) : (
          <AdminTable
            caption="Registrations, delegates and money per upcoming event, soonest first; amounts incl. VAT"
            scrollLabelledBy="events-heading"
            columns={[
              'Event',
              'Starts',
              { label: 'Registrations', numeric: true },
              { label: 'Delegates', numeric: true },
              'Seats taken / capacity',
              { label: 'Waiting list', numeric: true },
              { label: 'Received', numeric: true },
              { label: 'Refunded', numeric: true },
              { label: 'Net', numeric: true },
              { label: 'Awaiting', numeric: true },
            ]}
          >
            {events.map((event) => (
              <tr key={event.eventId}>
                <th scope="row">
                  <Link to={`/admin/registrations?event=${encodeURIComponent(event.eventId)}`}>{event.eventTitle}</Link>
                </th>
                <td>
                  <AdminTime iso={event.eventStart} precision="day" />
                </td>
                <td className="admin-number">{event.registrations}</td>
                <td className="admin-number">{event.delegates}</td>
                <td>{seatsTakenText(event.seats)}</td>
                <td className="admin-number">
                  <Link to={`/admin/events/${encodeURIComponent(event.eventId)}/waiting-list`}>{event.waitingList}</Link>
                </td>
                <AmountCell cents={event.receivedCents} />
                <AmountCell cents={event.refundedCents} />
                <AmountCell cents={event.netCents} />
                <AmountCell cents={event.awaitingCents} />
              </tr>
            ))}
          </AdminTable>
        )}
      </section>

      <section aria-labelledby="outbox-heading">
        <h2 id="outbox-heading">E-mail outbox</h2>
        <TermList
          className="admin-facts"
          terms={[
            ['Waiting to be sent', `${outbox.pending}${outbox.pending > 0 ? ` (the oldest for ${waitedFor(outbox.oldestPendingAgeSeconds)})` : ''}`],
            ['Failed', outbox.failed],
            ['Not known whether they arrived', outbox.uncertain],
          ]}
        />
        <p>
          <Link to="/admin/emails">
            {outbox.uncertain > 0
              ? `Decide about ${outbox.uncertain === 1 ? 'the e-mail' : `the ${outbox.uncertain} e-mails`} not known to have arrived`
              : outbox.failed > 0
                ? `See the ${outbox.failed === 1 ? 'failed e-mail' : `${outbox.failed} failed e-mails`}`
                : 'Failed e-mails'}
          </Link>
        </p>
      </section>

      <section aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">Sign out</h2>
        <Form method="post" action="/admin/sign-out" className="admin-inline-form" onSubmit={clearDoorLists}>
          <SubmitButton>Sign out</SubmitButton>
        </Form>{' '}
        <Form method="post" action="/admin/sign-out" className="admin-inline-form" onSubmit={clearDoorLists}>
          <input type="hidden" name="scope" value="everywhere" />
          <SubmitButton secondary>Sign out on every device</SubmitButton>
        </Form>
      </section>
    </>
  )
}
