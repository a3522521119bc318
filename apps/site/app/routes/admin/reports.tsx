import {
  accountingSettings,
  ageingRows,
  eventFinanceReport,
  isBackOfficeError,
  roleAllows,
  saveAccountingSettings,
  vatRegister,
  type AccountingSettings,
  type VatRegister,
} from '@events/core'
import { data, Form, useActionData } from 'react-router'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { AmountCell } from '../../components/admin/AmountCell'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { backOfficeContext, businessToday, refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { requestedPeriod } from '../../lib/report-period'
import type { Route } from './+types/reports'
import { backOfficeRefusal } from '../../lib/refusals'

export function meta() {
  return adminMeta('Finance reports')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const backOffice = backOfficeContext(args.context)
  const period = requestedPeriod(new URL(args.request.url), businessToday(args.context))
  const [events, settings, register] = await fromDatabase(args.context, () =>
    Promise.all([
      eventFinanceReport(backOffice),
      accountingSettings(backOffice),
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
  return data(
    {
      events,
      ageing,
      period,
      settings,
      maySetAccounts: roleAllows(user.role, 'manager'),
      register: refused ? null : register,
      periodError: refused ? register : null,
    },
    { headers, status: refused ? 400 : 200 },
  )
}

const SETTING_FIELDS = ['xeroAccountCode', 'xeroTaxType', 'sageLedgerAccount', 'sageVatRate'] as const

/** The accounting export settings' form (a manager's; the export itself is /admin/reports/accounting-export.csv). */
export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const saved = await runStaffCommand(
    args.context,
    session.user,
    saveAccountingSettings,
    Object.fromEntries(SETTING_FIELDS.map((name) => [name, formText(form, name)])),
  )
  if (!saved.ok) return data({ notice: null, error: refusalSentence(saved), fields: saved.fields }, { status: saved.status })
  return { notice: 'The accounting export settings are saved.', error: null, fields: {} }
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

const SETTING_LABELS: Record<(typeof SETTING_FIELDS)[number], string> = {
  xeroAccountCode: 'Xero: account code of sales (AccountCode)',
  xeroTaxType: 'Xero: tax rate name of output VAT (TaxType), as Xero shows it',
  sageLedgerAccount: 'Sage: ledger account of sales (nominal code)',
  sageVatRate: 'Sage: VAT rate name of standard-rated sales',
}

function AccountingExport({
  period,
  settings,
  maySetAccounts,
}: {
  period: { from: string; to: string }
  settings: AccountingSettings
  maySetAccounts: boolean
}) {
  const settingsOutcome = useActionData<typeof action>()
  const unset = SETTING_FIELDS.some((name) => settings[name] === '')
  return (
    <section aria-labelledby="accounting-heading">
      <h2 id="accounting-heading">Accounting export</h2>
      <p>
        A period’s books for Xero or Sage Business Cloud Accounting. <strong>Sales</strong> holds the tax invoices and credit notes issued (for the package’s
        sales invoice or quick entry import; its totals are the VAT register’s for the same period); <strong>payments and refunds</strong> holds the money
        received and paid back (for its bank statement import). A document goes in one export of a package only: exporting an overlapping period leaves out what
        an earlier export carried, unless you tick “Export again”.
      </p>
      {unset ? <p>The sales file needs the account codes and tax-rate names below: a manager sets them once.</p> : null}
      <form method="post" action="/admin/reports/accounting-export.csv" className="form">
        <fieldset>
          <legend>Package</legend>
          <label>
            <input type="radio" name="package" value="xero" defaultChecked /> Xero
          </label>
          <label>
            <input type="radio" name="package" value="sage" /> Sage Business Cloud Accounting
          </label>
        </fieldset>
        <fieldset>
          <legend>File</legend>
          <label>
            <input type="radio" name="file" value="sales" defaultChecked /> Sales: tax invoices and credit notes
          </label>
          <label>
            <input type="radio" name="file" value="money" /> Payments received and refunds paid
          </label>
        </fieldset>
        <FieldRow id="export-from" label="First day of the export">
          <input id="export-from" name="from" type="date" defaultValue={period.from} required />
        </FieldRow>
        <FieldRow id="export-to" label="Last day of the export">
          <input id="export-to" name="to" type="date" defaultValue={period.to} required />
        </FieldRow>
        <label>
          <input type="checkbox" name="again" value="on" /> Export again what earlier exports carried
        </label>
        <SubmitButton>Download the export</SubmitButton>
      </form>
      <h3 id="accounting-settings-heading">Accounting export settings</h3>
      {maySetAccounts ? (
        <Form method="post" className="form" aria-labelledby="accounting-settings-heading">
          {SETTING_FIELDS.map((name) => (
            <FieldRow key={name} id={`setting-${name}`} label={SETTING_LABELS[name]}>
              <input
                id={`setting-${name}`}
                name={name}
                defaultValue={settings[name]}
                required
                maxLength={50}
                autoComplete="off"
                aria-invalid={name in (settingsOutcome?.fields ?? {}) || undefined}
              />
            </FieldRow>
          ))}
          <SubmitButton>Save the settings</SubmitButton>
          {settingsOutcome?.notice ? <p role="status">{settingsOutcome.notice}</p> : null}
          {settingsOutcome?.error ? (
            <p className="admin-error" role="alert">
              {settingsOutcome.error}
            </p>
          ) : null}
        </Form>
      ) : (
        <dl>
          {SETTING_FIELDS.map((name) => (
            <div key={name}>
              <dt>{SETTING_LABELS[name]}</dt>
              <dd>{settings[name] || 'Not set (a manager sets it)'}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { events, ageing, period, register, periodError, settings, maySetAccounts } = loaderData
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
      <AccountingExport period={period} settings={settings} maySetAccounts={maySetAccounts} />
      <BackOfficeHomeLink />
    </>
  )
}
