import { delegateListEvents, isBackOfficeError, listRegistrations, PAYMENT_METHODS, paymentMethodKeyOf, REGISTRATION_STATUSES, type RegistrationListPage } from '@events/core'
import { data, Form, Link } from 'react-router'
import { Amount } from '../../components/Amount'
import { formatAdminTime, paymentMethodName, registrationStatusName } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/registrations'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Registrations')
}

/** The list's filters as they stand in the address, so a filtered list can be bookmarked and paged. */
const FILTER_FIELDS = ['q', 'event', 'status', 'method', 'from', 'to'] as const
type Filters = Record<(typeof FILTER_FIELDS)[number], string>

function filtersOf(searchParams: URLSearchParams): Filters {
  const filters = Object.fromEntries(FILTER_FIELDS.map((field) => [field, searchParams.get(field)?.trim() ?? ''])) as Filters
  // Addresses bookmarked when the methods were stored as the specification's labels (method=Bank+Transfer) still work.
  return { ...filters, method: paymentMethodKeyOf(filters.method) }
}

/** The page number asked for; anything but a whole number from 1 up is the first page. */
function pageOf(searchParams: URLSearchParams): number {
  const page = Number(searchParams.get('page') ?? '1')
  return Number.isSafeInteger(page) && page >= 1 ? page : 1
}

const EMPTY_PAGE: RegistrationListPage = { rows: [], total: 0, page: 1, pageSize: 25, pageCount: 1 }

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const searchParams = new URL(args.request.url).searchParams
  const filters = filtersOf(searchParams)
  // The events registered for, by the key that keeps a renamed event's registrations together; an address naming
  // another still shows it chosen.
  const events = (await fromDatabase(args.context, () => delegateListEvents(core.backOffice))).map((event) => ({ id: event.id, title: event.title }))
  if (filters.event && !events.some((event) => event.id === filters.event)) events.push({ id: filters.event, title: filters.event })
  // The core's lists travel as data: the page's own code must not import the core.
  const choices = { events, statuses: REGISTRATION_STATUSES, paymentMethods: PAYMENT_METHODS }
  try {
    const list = await fromDatabase(args.context, () =>
      listRegistrations(core.backOffice, {
        search: filters.q,
        eventId: filters.event || undefined,
        status: filters.status || undefined,
        paymentMethod: filters.method || undefined,
        createdFrom: filters.from || undefined,
        createdTo: filters.to || undefined,
        page: pageOf(searchParams),
      }),
    )
    return data({ filters, choices, list, problem: null }, { headers })
  } catch (error) {
    if (!isBackOfficeError(error)) throw error
    return data({ filters, choices, list: EMPTY_PAGE, problem: error.message }, { status: 400, headers })
  }
}

function pageLink(filters: Filters, page: number): string {
  const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ''))
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return query ? `/admin/registrations?${query}` : '/admin/registrations'
}

export default function Registrations({ loaderData }: Route.ComponentProps) {
  const { filters, choices, list, problem } = loaderData
  const filtered = Object.values(filters).some((value) => value !== '')
  return (
    <>
      <h1>Registrations</h1>
      <Form method="get" className="form admin-filters" aria-labelledby="filters-heading">
        <h2 id="filters-heading" className="visually-hidden">
          Find registrations
        </h2>
        <div className="form__field admin-filters__search">
          <label htmlFor="q">Search</label>
          <input id="q" name="q" type="search" defaultValue={filters.q} aria-describedby="q-hint" />
          <p id="q-hint">Part of a reference, company, e-mail address or delegate’s name.</p>
        </div>
        <div className="form__field">
          <label htmlFor="event">Event</label>
          <select id="event" name="event" defaultValue={filters.event}>
            <option value="">Every event</option>
            {choices.events.map((event) => (
              <option key={event.id} value={event.id}>
                {event.title}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor="status">Status</label>
          <select id="status" name="status" defaultValue={filters.status}>
            <option value="">Any status</option>
            {choices.statuses.map((status) => (
              <option key={status} value={status}>
                {registrationStatusName(status)}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor="method">Payment method</label>
          <select id="method" name="method" defaultValue={filters.method}>
            <option value="">Any method</option>
            {choices.paymentMethods.map((method) => (
              <option key={method} value={method}>
                {paymentMethodName(method)}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor="from">Registered from</label>
          <input id="from" name="from" type="date" defaultValue={filters.from} />
        </div>
        <div className="form__field">
          <label htmlFor="to">Registered up to</label>
          <input id="to" name="to" type="date" defaultValue={filters.to} />
        </div>
        <div className="admin-filters__actions">
          <button type="submit" className="button">
            Show registrations
          </button>
          {filtered ? <Link to="/admin/registrations">Clear the filters</Link> : null}
        </div>
      </Form>

      {problem ? (
        <p className="admin-error" role="alert">
          {problem}
        </p>
      ) : (
        <p role="status">
          {list.total === 0
            ? 'No registration matches.'
            : `${list.total} ${list.total === 1 ? 'registration' : 'registrations'}${filtered ? ' match' : ''}, newest first; page ${list.page} of ${list.pageCount}.`}
        </p>
      )}

      {list.rows.length > 0 ? (
        <div className="admin-table-scroll" role="region" aria-label="Registrations found" tabIndex={0}>
          <table className="admin-table">
            <caption className="visually-hidden">Registrations, page {list.page} of {list.pageCount}; amounts incl. VAT</caption>
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Registered</th>
                <th scope="col">Company</th>
                <th scope="col">Event</th>
                <th scope="col" className="admin-number">Delegates</th>
                <th scope="col">Payment</th>
                <th scope="col">Status</th>
                <th scope="col" className="admin-number">Total</th>
                <th scope="col" className="admin-number">Paid</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((row) => (
                <tr key={row.reference}>
                  <th scope="row">
                    <Link to={`/admin/registrations/${row.reference}`}>{row.reference}</Link>
                  </th>
                  <td>
                    <time dateTime={row.createdAt}>{formatAdminTime(row.createdAt)}</time>
                  </td>
                  <td>
                    {row.companyName}
                    <br />
                    <span className="admin-quiet">{row.email}</span>
                  </td>
                  <td>{row.eventTitle}</td>
                  <td className="admin-number">{row.delegateCount}</td>
                  <td>{paymentMethodName(row.paymentMethod)}</td>
                  <td>{row.cancelledAt ? `Cancelled (${registrationStatusName(row.status).toLowerCase()})` : registrationStatusName(row.status)}</td>
                  <td className="admin-number">
                    <Amount cents={row.totalCents} />
                  </td>
                  <td className="admin-number">
                    <Amount cents={row.paidCents} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {list.pageCount > 1 ? (
        <nav aria-label="Pages of registrations">
          <ul className="admin-links">
            {list.page > 1 ? (
              <li>
                <Link to={pageLink(filters, list.page - 1)} rel="prev">
                  Previous page
                </Link>
              </li>
            ) : null}
            {list.page < list.pageCount ? (
              <li>
                <Link to={pageLink(filters, list.page + 1)} rel="next">
                  Next page
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
      <BackOfficeHomeLink />
    </>
  )
}
