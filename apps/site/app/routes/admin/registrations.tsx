import {
  delegateListEvents,
  isBackOfficeError,
  listRegistrations,
  PAYMENT_METHODS,
  paymentMethodKeyOf,
  REGISTRATION_LIST_STATUSES,
  type RegistrationListPage,
} from '@events/core'
import { data, Form, Link } from 'react-router'
import { AdminPager } from '../../components/admin/AdminPager'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { AmountCell } from '../../components/admin/AmountCell'
import { FieldRow, Options, SubmitButton } from '../../components/admin/FormControls'
import { paymentMethodName, registrationStandingName, registrationStatusName } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/registrations'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'
import { backOfficeRefusal } from '../../lib/refusals'

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
  const searchParams = new URL(args.request.url).searchParams
  const filters = filtersOf(searchParams)
  // The events registered for, by the key that keeps a renamed event's registrations together; an address naming
  // another still shows it chosen.
  const events = (await readBackOffice(args.context, delegateListEvents)).map((event) => ({ id: event.id, title: event.title }))
  if (filters.event && !events.some((event) => event.id === filters.event)) events.push({ id: filters.event, title: filters.event })
  // The core's lists travel as data: the page's own code must not import the core.
  const choices = { events, statuses: REGISTRATION_LIST_STATUSES, paymentMethods: PAYMENT_METHODS }
  try {
    const list = await readBackOffice(args.context, (backOffice) =>
      listRegistrations(backOffice, {
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
    return data({ filters, choices, list: EMPTY_PAGE, problem: backOfficeRefusal(error).message }, { status: 400, headers })
  }
}

function pageLink(filters: Filters, page: number): string {
  const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ''))
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return query ? `/admin/registrations?${query}` : '/admin/registrations'
}

/** One filter of the list: a choice among the values given, or none ("Every event"). */
function FilterSelect({
  name,
  label,
  anyText,
  value,
  choices,
}: {
  name: string
  label: string
  anyText: string
  value: string
  choices: ReadonlyArray<readonly [string, string]>
}) {
  return (
    <FieldRow id={name} label={label}>
      <select id={name} name={name} defaultValue={value}>
        <option value="">{anyText}</option>
        <Options choices={choices} />
      </select>
    </FieldRow>
  )
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
        <FieldRow id="q" label="Search" className="admin-filters__search">
          <input id="q" name="q" type="search" defaultValue={filters.q} aria-describedby="q-hint" />
          <p id="q-hint">Part of a reference, company, e-mail address or delegate’s name.</p>
        </FieldRow>
        <FilterSelect
          name="event"
          label="Event"
          anyText="Every event"
          value={filters.event}
          choices={choices.events.map((event) => [event.id, event.title] as const)}
        />
        <FilterSelect
          name="status"
          label="Status"
          anyText="Any status"
          value={filters.status}
          choices={choices.statuses.map((status) => [status, registrationStatusName(status)] as const)}
        />
        <FilterSelect
          name="method"
          label="Payment method"
          anyText="Any method"
          value={filters.method}
          choices={choices.paymentMethods.map((method) => [method, paymentMethodName(method)] as const)}
        />
        <FieldRow id="from" label="Registered from">
          <input id="from" name="from" type="date" defaultValue={filters.from} />
        </FieldRow>
        <FieldRow id="to" label="Registered up to">
          <input id="to" name="to" type="date" defaultValue={filters.to} />
        </FieldRow>
        <div className="admin-filters__actions">
          <SubmitButton>Show registrations</SubmitButton>
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
        <AdminTable
          caption={`Registrations, page ${list.page} of ${list.pageCount}; amounts incl. VAT`}
          scrollLabel="Registrations found"
          columns={[
            'Reference',
            'Registered',
            'Company',
            'Event',
            { label: 'Delegates', numeric: true },
            'Payment',
            'Status',
            { label: 'Total', numeric: true },
            { label: 'Paid', numeric: true },
          ]}
        >
          {list.rows.map((row) => (
            <tr key={row.reference}>
              <th scope="row">
                <Link to={`/admin/registrations/${row.reference}`}>{row.reference}</Link>
              </th>
              <td>
                <AdminTime iso={row.createdAt} />
              </td>
              <td>
                {row.companyName}
                <br />
                <span className="admin-quiet">{row.email}</span>
              </td>
              <td>{row.eventTitle}</td>
              <td className="admin-number">{row.delegateCount}</td>
              <td>{paymentMethodName(row.paymentMethod)}</td>
              <td>{registrationStandingName(row)}</td>
              <AmountCell cents={row.totalCents} />
              <AmountCell cents={row.paidCents} />
            </tr>
          ))}
        </AdminTable>
      ) : null}

      {list.pageCount > 1 ? (
        <AdminPager
          label="Pages of registrations"
          previous={list.page > 1 ? { to: pageLink(filters, list.page - 1), text: 'Previous page' } : undefined}
          next={list.page < list.pageCount ? { to: pageLink(filters, list.page + 1), text: 'Next page' } : undefined}
        />
      ) : null}
      <BackOfficeHomeLink />
    </>
  )
}
