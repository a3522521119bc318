import { correctCompanyDetails, correctInvoice, type CompanyDetails } from '@events/core'
import { data, Form, Link, redirect } from 'react-router'
import { AdminField, adminFieldId } from '../../components/admin/AdminField'
import { ErrorSummary } from '../../components/FormMessages'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { hasStarted, registrationOr404, registrationPagePath, runStaffCommand } from '../../lib/backoffice.server'
import { SubmitButton } from '../../components/admin/FormControls'
import type { Route } from './+types/registration-company'

export function meta({ params }: Route.MetaArgs) {
  return adminMeta(`Company details: ${params.reference}`)
}

// The labels of the public registration form, whose validation messages name them.
const FIELDS: ReadonlyArray<{ name: keyof CompanyDetails; label: string; type?: 'email' | 'tel'; multiline?: boolean }> = [
  { name: 'companyName', label: 'Company name' },
  { name: 'address', label: 'Address', multiline: true },
  { name: 'email', label: 'E-mail', type: 'email' },
  { name: 'tel', label: 'Telephone', type: 'tel' },
  { name: 'vatNumber', label: 'VAT number (empty when not registered for VAT)' },
  { name: 'purchaseOrderNumber', label: 'Purchase order number' },
]

export async function loader(args: Route.LoaderArgs) {
  // Correcting what the tax invoice names is an invoice correction: a manager's.
  const { headers } = await requireStaffMember(args, { role: 'manager' })
  const registration = await registrationOr404(args.context, args.params.reference)
  const { name, ...rest } = registration.company
  return data(
    {
      reference: registration.reference,
      eventTitle: registration.event.title,
      started: hasStarted(args.context, registration.event.start),
      company: { companyName: name, ...rest } satisfies CompanyDetails,
    },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args, { role: 'manager' })
  const { user, headers } = session
  if (formText(form, 'intent') === 'correct-invoice') {
    const corrected = await runStaffCommand(args.context, user, correctInvoice, { reference: args.params.reference })
    if (!corrected.ok) return data({ message: corrected.message, fields: corrected.fields, values: undefined }, { status: corrected.status, headers })
    throw redirect(registrationPagePath(corrected.value.reference, 'invoice-corrected'), { headers })
  }
  const values = Object.fromEntries(FIELDS.map(({ name }) => [name, formText(form, name)])) as unknown as CompanyDetails
  const corrected = await runStaffCommand(args.context, user, correctCompanyDetails, { ...values, reference: args.params.reference })
  if (!corrected.ok) return data({ message: corrected.message, fields: corrected.fields, values }, { status: corrected.status, headers })
  throw redirect(registrationPagePath(corrected.value.reference, 'company'), { headers })
}

export default function CompanyDetailsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { reference, eventTitle, started, company } = loaderData
  const fields = actionData?.fields ?? {}
  return (
    <>
      <h1>Company details</h1>
      <p>
        <Link to={`/admin/registrations/${reference}`}>Registration {reference}</Link>: {company.companyName}, {eventTitle}.
      </p>
      {started ? (
        <p className="admin-error" role="alert">
          {eventTitle} has started; registration {reference} can no longer be changed.
        </p>
      ) : (
        <>
          <p>
            Corrections show in e-mails sent from now on. The amounts stay as they are; the tax invoice already issued changes only when you correct it below.
          </p>
          {actionData ? (
            <ErrorSummary title={actionData.message} fields={FIELDS.map((field) => ({ ...field, id: adminFieldId(field.name) }))} messages={fields} />
          ) : null}
          <Form method="post" className="form" noValidate>
            {FIELDS.map((field) => (
              <AdminField
                key={field.name}
                name={field.name}
                label={field.label}
                type={field.type}
                multiline={field.multiline}
                value={actionData?.values?.[field.name] ?? company[field.name]}
                error={fields[field.name]}
              />
            ))}
            <SubmitButton>Save the company details</SubmitButton>
          </Form>
          <section aria-labelledby="correct-invoice-heading">
            <h2 id="correct-invoice-heading">Correct the invoice</h2>
            <p>
              Once the details above are saved, correct the tax invoice: a credit note cancels the invoice issued, and a new tax invoice for the same
              registration names the corrected details. Both are e-mailed to the registrant; what was paid counts against the new invoice.
            </p>
            <Form method="post">
              <input type="hidden" name="intent" value="correct-invoice" />
              <SubmitButton secondary>Correct the invoice</SubmitButton>
            </Form>
          </section>
        </>
      )}
    </>
  )
}
