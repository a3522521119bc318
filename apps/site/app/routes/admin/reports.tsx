import { ageingRows, eventFinanceReport, isBackOfficeError, vatRegister, type VatRegister } from '@events/core'
import { data, Form } from 'react-router'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { AmountCell } from '../../components/admin/AmountCell'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { backOfficeContext, businessToday } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { requestedPeriod } from '../../lib/report-period'
import type { Route } from './+types/reports'
import { backOfficeRefusal } from '../../lib/refusals'

export function meta() {
  return adminMeta('Finance reports')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const backOffice = backOfficeContext(args.context)
  const period = requestedPeriod(new URL(args.request.url), businessToday(args.context))
  const [events, register] = await fromDatabase(args.context, () =>
    Promise.all([
      eventFinanceReport(backOffice),
      vatRegister(backOffice, period).catch((error: unknown) => {
        if (isBackOfficeError(error)) return { error: backOfficeRefusal(error).message, field: error.field ?? 'from' }
        throw error
      }),
    ]),
  )
  const refused = 'error' in register
  const ageing = [...events.events, { eventId: 'all', eventTitle: 'All events', ageing: events.totals.ageing }].map((event) => ({
    key: event.eventId,
    title: event.eventTitle,
    bands: ageingRows(event.ageing),
  }))
  return data({ events, ageing, period, register: refused ? null : register, periodError: refused ? register : null }, { headers, status: refused ? 400 : 200 })
}

const DOCUMENT_NAMES = { 'tax-invoice': 'Tax invoice', 'credit-note': 'Credit note' } as const

function TotalsRow({ label, sums }: { label: string; sums: { exclVatCents: number; vatCents: number; inclVatCents: number } }) {
  return (
    <tr>
      <th scope="row" colSpan={4}>
        {label}
      </th>
      <AmountCell cents={sums.exclVatCents} />
      <AmountCell cents={sums.vatCents} />
      <AmountCell cents={sums.inclVatCents} />
    </tr>
  )
}

function VatRegisterTable({ register }: { register: VatRegister }) {
  return (
    <AdminTable
      caption={`Tax invoices and credit notes issued from ${register.from} to ${register.to}; credit notes reduce output tax`}
      scrollLabelledBy="vat-heading"
      columns={[
        'Document',
        'Date',
        'Customer',
        'Customer VAT number',
        { label: 'Excl. VAT', numeric: true },
        { label: 'VAT', numeric: true },
        { label: 'Incl. VAT', numeric: true },
      ]}
    >
      {register.entries.map((entry) => (
        <tr key={entry.number}>
          <th scope="row">
            {DOCUMENT_NAMES[entry.kind]} {entry.number}
            <br />
            <span className="admin-table__detail">registration {entry.registrationReference}</span>
          </th>
          <td>{entry.issuedOn}</td>
          <td>{entry.customer}</td>
          <td>{entry.customerVatNumber}</td>
          <AmountCell cents={entry.exclVatCents} />
          <AmountCell cents={entry.vatCents} />
          <AmountCell cents={entry.inclVatCents} />
        </tr>
      ))}
      <TotalsRow label={`Tax invoices (${register.invoices.count}): output tax`} sums={register.invoices} />
      <TotalsRow label={`Credit notes (${register.creditNotes.count})`} sums={register.creditNotes} />
      <TotalsRow label="Net of credit notes" sums={register.net} />
    </AdminTable>
  )
}

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { events, ageing, period, register, periodError } = loaderData
  const query = new URLSearchParams(period).toString()
  return (
    <>
      <h1>Finance reports</h1>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Money per event</h2>
        <p>
          Every event with registrations, incl. VAT unless the column says otherwise. Net is what was invoiced less the credit notes; outstanding is what
          registrations still owe after their credit notes and payments. <a href="/admin/reports/events.xlsx">Download as Excel</a>
        </p>
        {events.events.length === 0 ? (
          <p>No event has a registration yet.</p>
        ) : (
          <AdminTable
            caption="Invoiced, credited, received, refunded and outstanding per event"
            scrollLabelledBy="events-heading"
            columns={[
              'Event',
              { label: 'Delegates attending', numeric: true },
              { label: 'Invoiced', numeric: true },
              { label: 'Credited', numeric: true },
              { label: 'Net', numeric: true },
              { label: 'Excl. VAT', numeric: true },
              { label: 'VAT', numeric: true },
              { label: 'Received', numeric: true },
              { label: 'Refunded', numeric: true },
              { label: 'Outstanding', numeric: true },
              { label: 'Sponsorship excl. VAT', numeric: true },
            ]}
          >
            {[
              ...events.events.map((event) => ({ key: event.eventId, title: event.eventTitle, start: event.eventStart as string | null, figures: event })),
              { key: 'all', title: 'All events', start: null, figures: events.totals },
            ].map(({ key, title, start, figures }) => (
              <tr key={key}>
                <th scope="row">
                  {title}
                  {start ? (
                    <>
                      <br />
                      <span className="admin-table__detail">
                        <AdminTime iso={start} precision="day" />
                      </span>
                    </>
                  ) : null}
                </th>
                <td className="admin-number">{figures.delegatesAttending}</td>
                <AmountCell cents={figures.invoicedCents} />
                <AmountCell cents={figures.creditedCents} />
                <AmountCell cents={figures.netCents} />
                <AmountCell cents={figures.netExclVatCents} />
                <AmountCell cents={figures.netVatCents} />
                <AmountCell cents={figures.receivedCents} />
                <AmountCell cents={figures.refundedCents} />
                <AmountCell cents={figures.outstandingCents} />
                <AmountCell cents={figures.sponsorshipExclVatCents} />
              </tr>
            ))}
          </AdminTable>
        )}
      </section>

      <section aria-labelledby="ageing-heading">
        <h2 id="ageing-heading">Outstanding by age</h2>
        <p>What each event’s registrations still owe, by how long ago each was first invoiced: current (under 30 days), 30, 60, and 90 days and more.</p>
        {events.events.length === 0 ? (
          <p>No event has a registration yet.</p>
        ) : (
          <AdminTable
            caption="Outstanding per event by age, from each registration’s first tax invoice"
            scrollLabelledBy="ageing-heading"
            columns={['Event', ...ageing[0]!.bands.map((band) => ({ label: band.label, numeric: true }))]}
          >
            {ageing.map((event) => (
              <tr key={event.key}>
                <th scope="row">{event.title}</th>
                {event.bands.map((band) => (
                  <AmountCell key={band.label} cents={band.cents} />
                ))}
              </tr>
            ))}
          </AdminTable>
        )}
      </section>

      <section aria-labelledby="vat-heading">
        <h2 id="vat-heading">VAT register</h2>
        <p>Every tax invoice and credit note issued in a period (days in Johannesburg), for the VAT201 return.</p>
        <Form method="get" className="form">
          <FieldRow id="vat-from" label="From (YYYY-MM-DD)">
            <input id="vat-from" name="from" type="date" defaultValue={period.from} required aria-invalid={periodError?.field === 'from' || undefined} />
          </FieldRow>
          <FieldRow id="vat-to" label="To (YYYY-MM-DD)">
            <input id="vat-to" name="to" type="date" defaultValue={period.to} required aria-invalid={periodError?.field === 'to' || undefined} />
          </FieldRow>
          <SubmitButton>Show the register</SubmitButton>
        </Form>
        {periodError ? (
          <p className="admin-error" role="alert">
            {periodError.error}
          </p>
        ) : null}
        {register ? (
          <>
            <p>
              Download: <a href={`/admin/reports/vat-register.csv?${query}`}>CSV</a>, <a href={`/admin/reports/vat-register.xlsx?${query}`}>Excel</a>
            </p>
            <VatRegisterTable register={register} />
          </>
        ) : null}
      </section>
      <BackOfficeHomeLink />
    </>
  )
}
