import { dashboard } from '@events/core'
import { data, Form, Link } from 'react-router'
import { Amount } from '../../components/Amount'
import { formatAdminDay } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/home'

export function meta() {
  return adminMeta('Home')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const figures = await fromDatabase(args.context, () => dashboard(core.backOffice))
  return data(
    { name: user.name, email: user.email, role: user.role, twoFactorEnabled: user.twoFactorEnabled, events: figures.events, outbox: figures.outbox },
    { headers },
  )
}

const ROLE_NAMES = { owner: 'Owner', staff: 'Staff' } as const

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
            <Link to="/admin/data-requests">Personal data requests</Link>
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
          <div className="admin-table-scroll" role="region" aria-labelledby="events-heading" tabIndex={0}>
            <table className="admin-table">
              <caption className="visually-hidden">Registrations, delegates and money per upcoming event, soonest first; amounts incl. VAT</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Starts</th>
                  <th scope="col" className="admin-number">Registrations</th>
                  <th scope="col" className="admin-number">Delegates</th>
                  <th scope="col" className="admin-number">Paid (incl. VAT)</th>
                  <th scope="col" className="admin-number">Awaiting (incl. VAT)</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => (
                  <tr key={event.eventId}>
                    <th scope="row">
                      <Link to={`/admin/registrations?event=${encodeURIComponent(event.eventId)}`}>{event.eventTitle}</Link>
                    </th>
                    <td>
                      <time dateTime={event.eventStart}>{formatAdminDay(event.eventStart)}</time>
                    </td>
                    <td className="admin-number">{event.registrations}</td>
                    <td className="admin-number">{event.delegates}</td>
                    <td className="admin-number">
                      <Amount cents={event.paidCents} />
                    </td>
                    <td className="admin-number">
                      <Amount cents={event.awaitingCents} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="outbox-heading">
        <h2 id="outbox-heading">E-mail outbox</h2>
        <dl className="admin-facts">
          <dt>Waiting to be sent</dt>
          <dd>
            {outbox.pending}
            {outbox.pending > 0 ? ` (the oldest for ${waitedFor(outbox.oldestPendingAgeSeconds)})` : ''}
          </dd>
          <dt>Failed</dt>
          <dd>{outbox.failed}</dd>
        </dl>
        <p>
          <Link to="/admin/emails">{outbox.failed > 0 ? `See the ${outbox.failed === 1 ? 'failed e-mail' : `${outbox.failed} failed e-mails`}` : 'Failed e-mails'}</Link>
        </p>
      </section>

      <section aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">Sign out</h2>
        <Form method="post" action="/admin/sign-out" className="admin-inline-form">
          <button type="submit" className="button">
            Sign out
          </button>
        </Form>{' '}
        <Form method="post" action="/admin/sign-out" className="admin-inline-form">
          <input type="hidden" name="scope" value="everywhere" />
          <button type="submit" className="button button--secondary">
            Sign out on every device
          </button>
        </Form>
      </section>
    </>
  )
}
