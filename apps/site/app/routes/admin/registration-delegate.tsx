import { changeDelegate } from '@events/core'
import { data, Form, Link, redirect } from 'react-router'
import { AdminField, adminFieldId } from '../../components/admin/AdminField'
import { ErrorSummary } from '../../components/FormMessages'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { hasStarted, registrationOr404, registrationPagePath, runStaffCommand } from '../../lib/backoffice.server'
import { SubmitButton } from '../../components/admin/FormControls'
import type { Route } from './+types/registration-delegate'

export function meta({ params }: Route.MetaArgs) {
  return adminMeta(`Change delegate ${params.delegateId}: ${params.reference}`)
}

const FIELDS = [
  { name: 'name', label: 'Name' },
  { name: 'position', label: 'Position' },
  { name: 'email', label: 'E-mail' },
] as const

type FieldName = (typeof FIELDS)[number]['name']

/** The delegate's place in the registration from the address (1 is the first listed); 404 for anything else. */
function delegateNumber(param: string): number {
  const number = /^[1-9]\d{0,2}$/.test(param) ? Number(param) : NaN
  if (Number.isNaN(number)) throw data('No such delegate.', { status: 404 })
  return number
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const number = delegateNumber(args.params.delegateId)
  const registration = await registrationOr404(args.context, args.params.reference)
  const delegate = registration.delegates[number - 1]
  if (!delegate) throw data(`Registration ${registration.reference} has no delegate ${number}.`, { status: 404 })
  return data(
    {
      reference: registration.reference,
      companyName: registration.company.name,
      eventTitle: registration.event.title,
      started: hasStarted(args.context, registration.event.start),
      number,
      delegate,
    },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  const values = Object.fromEntries(FIELDS.map(({ name }) => [name, formText(form, name)])) as Record<FieldName, string>
  const changed = await runStaffCommand(args.context, user, changeDelegate, {
    ...values,
    reference: args.params.reference,
    delegate: delegateNumber(args.params.delegateId),
  })
  if (!changed.ok) return data({ message: changed.message, fields: changed.fields, values }, { status: changed.status, headers })
  throw redirect(registrationPagePath(changed.value.reference, 'delegate'), { headers })
}

export default function ChangeDelegate({ loaderData, actionData }: Route.ComponentProps) {
  const { reference, companyName, eventTitle, started, number, delegate } = loaderData
  const fields = actionData?.fields ?? {}
  const shown = (name: FieldName) => actionData?.values[name] ?? delegate[name]
  return (
    <>
      <h1>Change delegate {number}</h1>
      <p>
        <Link to={`/admin/registrations/${reference}`}>Registration {reference}</Link>: {companyName}, {eventTitle}.
      </p>
      <p>
        {started
          ? `${eventTitle} has started: another person can no longer take ${delegate.name}’s place, but their name and position can be corrected. A corrected name replaces their certificate of attendance, if they have one, with a new one e-mailed to them.`
          : `Replace ${delegate.name} with the person who will attend in their place. A new e-mail address gets the delegate’s confirmation; the amounts and the tax invoice stay as they are.`}
      </p>
      {actionData ? (
        <ErrorSummary title={actionData.message} fields={FIELDS.map((field) => ({ ...field, id: adminFieldId(field.name) }))} messages={fields} />
      ) : null}
      <Form method="post" className="form" noValidate>
        <AdminField name="name" label="Name" value={shown('name')} error={fields.name} />
        <AdminField name="position" label="Position" value={shown('position')} error={fields.position} />
        {started ? (
          <>
            <input type="hidden" name="email" value={delegate.email} />
            <p>E-mail: {delegate.email}</p>
          </>
        ) : (
          <AdminField name="email" label="E-mail" type="email" value={shown('email')} error={fields.email} />
        )}
        <SubmitButton>Save the delegate</SubmitButton>
      </Form>
    </>
  )
}
