import { data, Form } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { attemptAccountChange, formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/staff'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Staff accounts')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args, { role: 'owner' })
  const { staff } = args.context.get(servicesContext)
  const [members, twoFactorRequired] = await fromDatabase(args.context, () => Promise.all([staff.listStaff(), staff.isTwoFactorRequired()]))
  return data({ members, twoFactorRequired }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args, { role: 'owner' })
  const { user } = session
  const { context } = args
  const { staff } = context.get(servicesContext)
  if (formText(form, 'intent') === 'require-two-factor') {
    const required = formText(form, 'required') === 'yes'
    await fromDatabase(context, () => staff.setTwoFactorRequired(user, required))
    return { notice: required ? 'Two-factor sign-in is now required for every account.' : 'Two-factor sign-in is now up to each member.', error: null }
  }
  const email = formText(form, 'email')
  const role = formText(form, 'role') === 'owner' ? 'owner' : 'staff'
  const invited = await attemptAccountChange(context, () => staff.inviteStaff(user, { email, name: formText(form, 'name'), role }))
  if (!invited.ok) return data({ notice: null, error: invited.message }, { status: 400 })
  return { notice: `An invitation is on its way to ${invited.value.email}. The link in it works for 7 days.`, error: null }
}

export default function StaffAccounts({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Staff accounts</h1>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      <AdminTable caption="Everyone with a back-office account" columns={['Name', 'E-mail address', 'Role', 'Two-factor']}>
        {loaderData.members.map((member) => (
          <tr key={member.id}>
            <td>{member.name}</td>
            <td>{member.email}</td>
            <td>{member.role === 'owner' ? 'Owner' : 'Staff'}</td>
            <td>{member.twoFactorEnabled ? 'On' : 'Off'}</td>
          </tr>
        ))}
      </AdminTable>

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a colleague</h2>
        <p>They get an e-mail with a link to choose their password.</p>
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="invite" />
          <FieldRow id="invite-name" label="Name">
            <input id="invite-name" name="name" autoComplete="off" required />
          </FieldRow>
          <FieldRow id="invite-email" label="E-mail address">
            <input id="invite-email" name="email" type="email" autoComplete="off" required />
          </FieldRow>
          <FieldRow id="invite-role" label="Role">
            <select id="invite-role" name="role" defaultValue="staff">
              <option value="staff">Staff: registrations, payments, delegate lists, enquiries</option>
              <option value="owner">Owner: everything, including staff accounts and the audit log</option>
            </select>
          </FieldRow>
          <SubmitButton>Send invitation</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading">Two-factor sign-in for everyone</h2>
        <p>
          {loaderData.twoFactorRequired
            ? 'Required: a member without it must set it up before anything else.'
            : 'Not required: each member decides for their own account. Once it is required, everyone without it, you included, must set it up before anything else.'}
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="require-two-factor" />
          <input type="hidden" name="required" value={loaderData.twoFactorRequired ? 'no' : 'yes'} />
          <SubmitButton secondary>{loaderData.twoFactorRequired ? 'Stop requiring two-factor sign-in' : 'Require two-factor sign-in for everyone'}</SubmitButton>
        </Form>
      </section>
      <BackOfficeHomeLink />
    </>
  )
}
