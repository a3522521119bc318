import { recordBankTransfer } from '@events/core'
import { formatRand } from '@events/pricing'
import { data, Form, Link, redirect } from 'react-router'
import { AdminField, adminFieldId } from '../../components/admin/AdminField'
import { ErrorSummary } from '../../components/FormMessages'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { businessToday, registrationOr404, registrationPagePath, runStaffCommand } from '../../lib/backoffice.server'
import { TermList } from '../../components/TermList'
import { formatAdminDay, isoDayOf } from '../../lib/admin-format'
import { SubmitButton } from '../../components/admin/FormControls'
import type { Route } from './+types/registration-payment'

export function meta({ params }: Route.MetaArgs) {
  return adminMeta(`Record a bank transfer: ${params.reference}`)
}

const FIELDS = [
  { name: 'amount', label: 'Amount received (rand)' },
  { name: 'receivedOn', label: 'Date received' },
  { name: 'bankReference', label: 'Bank reference' },
  { name: 'note', label: 'Note' },
] as const

type FieldName = (typeof FIELDS)[number]['name']

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const registration = await registrationOr404(args.context, args.params.reference)
  return data(
    {
      reference: registration.reference,
      companyName: registration.company.name,
      eventTitle: registration.event.title,
      totalCents: registration.amounts.totalCents,
      paidCents: registration.amounts.paidCents,
      outstandingCents: registration.amounts.outstandingCents,
      today: businessToday(args.context),
      registeredOn: registration.invoice?.issuedAt ?? registration.createdAt,
    },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  const values = Object.fromEntries(FIELDS.map(({ name }) => [name, formText(form, name)])) as Record<FieldName, string>
  const recorded = await runStaffCommand(args.context, user, recordBankTransfer, { ...values, reference: args.params.reference })
  if (!recorded.ok) return data({ message: recorded.message, fields: recorded.fields, values }, { status: recorded.status, headers })
  throw redirect(registrationPagePath(recorded.value.reference, recorded.value.surplusCents > 0 ? 'surplus' : 'payment'), { headers })
}

export default function RecordBankTransfer({ loaderData, actionData }: Route.ComponentProps) {
  const registration = loaderData
  const fields = actionData?.fields ?? {}
  const typed = (name: FieldName, fallback = '') => actionData?.values[name] ?? fallback
  const settled = registration.outstandingCents === 0
  return (
    <>
      <h1>Record a bank transfer</h1>
      <p>
        <Link to={`/admin/registrations/${registration.reference}`}>Registration {registration.reference}</Link>
      </p>
      <TermList
        className="admin-facts"
        terms={[
          ['Reference', registration.reference],
          ['Company', registration.companyName],
          ['Event', registration.eventTitle],
          ['Total incl. VAT', formatRand(registration.totalCents)],
          ['Paid so far', formatRand(registration.paidCents)],
          ['Outstanding', <strong key="outstanding">{formatRand(registration.outstandingCents)}</strong>],
        ]}
      />
      {settled ? (
        <p className="admin-notice" role="status">
          This registration is paid in full; nothing is outstanding.
        </p>
      ) : (
        <>
          {actionData ? (
            <ErrorSummary title={actionData.message} fields={FIELDS.map((field) => ({ ...field, id: adminFieldId(field.name) }))} messages={fields} />
          ) : null}
          <Form method="post" className="form" noValidate>
            <AdminField
              name="amount"
              label="Amount received (rand)"
              value={typed('amount')}
              error={fields.amount}
              inputMode="decimal"
              hint={`As on the bank statement, e.g. ${formatRand(registration.outstandingCents)}. The full outstanding amount marks the registration paid and e-mails the receipt with the tax invoice; less leaves it part-paid; more is recorded in full and the surplus owed back.`}
            />
            <AdminField
              name="receivedOn"
              label="Date received"
              type="date"
              value={typed('receivedOn', registration.today)}
              error={fields.receivedOn}
              min={isoDayOf(registration.registeredOn)}
              max={registration.today}
              hint={`As on the bank statement: from ${formatAdminDay(registration.registeredOn)}, when the registration was made, up to today.`}
            />
            <AdminField
              name="bankReference"
              label="Bank reference"
              value={typed('bankReference')}
              error={fields.bankReference}
              hint="The reference on the bank statement. Each transfer is recorded once."
            />
            <AdminField name="note" label="Note" value={typed('note')} error={fields.note} multiline required={false} />
            <SubmitButton>Record the transfer</SubmitButton>
          </Form>
        </>
      )}
    </>
  )
}
