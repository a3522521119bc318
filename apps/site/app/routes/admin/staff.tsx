import type { MemberChange, StaffMember, StaffRole } from '@events/staff'
import { data, Form } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { attemptAccountChange, formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/staff'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { FieldRow, Options, SubmitButton } from '../../components/admin/FormControls'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Staff accounts')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args, { role: 'owner' })
  const { staff } = args.context.get(servicesContext)
  const [members, twoFactorRequired] = await fromDatabase(args.context, () => Promise.all([staff.listStaff(), staff.isTwoFactorRequired()]))
  return data({ members, twoFactorRequired, selfId: user.id }, { headers })
}

const ROLE_NAMES: Record<StaffRole, string> = { owner: 'Owner', manager: 'Manager', staff: 'Staff' }
const ROLE_CHOICES: ReadonlyArray<readonly [StaffRole, string]> = [
  ['staff', 'Staff: registrations, transfers, delegate changes, enquiries; may ask for a cancellation'],
  ['manager', 'Manager: as staff, and approves cancellations, fee waivers, refunds, erasure and invoice corrections'],
  ['owner', 'Owner: everything, including staff accounts, settings and the audit log'],
]

function roleOf(value: string): StaffRole | null {
  return ROLE_CHOICES.find(([role]) => role === value)?.[0] ?? null
}

/** The change a member's form asks for, or null for a form that names none. */
function memberChangeOf(form: FormData): MemberChange | null {
  const change = formText(form, 'change')
  if (change === 'deactivate' || change === 'reactivate' || change === 'reset-two-factor' || change === 'resend-invitation' || change === 'lift-sign-in-locks')
    return { kind: change }
  const role = roleOf(formText(form, 'role'))
  return change === 'set-role' && role ? { kind: 'set-role', role } : null
}

function changeNotice(change: MemberChange, member: StaffMember): string {
  switch (change.kind) {
    case 'deactivate':
      return `${member.name} is deactivated: their sessions have ended and they cannot sign in. Their history stays in the audit log.`
    case 'reactivate':
      return `${member.name} may sign in again.`
    case 'set-role':
      return `${member.name} is now ${ROLE_NAMES[member.role].toLowerCase()}.`
    case 'reset-two-factor':
      return `${member.name}'s two-factor sign-in is reset: they set it up again when they next sign in.`
    case 'resend-invitation':
      return `A new invitation is on its way to ${member.email}; the earlier link no longer works.`
    case 'lift-sign-in-locks':
      return `${member.name} may sign in again at once: the waits their failed sign-ins had caused are lifted.`
  }
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args, { role: 'owner' })
  const { user } = session
  const { context } = args
  const { staff } = context.get(servicesContext)
  if (formText(form, 'intent') === 'member') {
    const change = memberChangeOf(form)
    if (!change) return data({ notice: null, error: 'Choose what to change.' }, { status: 400 })
    const changed = await attemptAccountChange(context, () => staff.changeMember(user, formText(form, 'memberId'), change))
    if (!changed.ok) return data({ notice: null, error: changed.message }, { status: 400 })
    return { notice: changeNotice(change, changed.value), error: null }
  }
  if (formText(form, 'intent') === 'require-two-factor') {
    const required = formText(form, 'required') === 'yes'
    await fromDatabase(context, () => staff.setTwoFactorRequired(user, required))
    return { notice: required ? 'Two-factor sign-in is now required for every account.' : 'Two-factor sign-in is now up to each member.', error: null }
  }
  const email = formText(form, 'email')
  const role = roleOf(formText(form, 'role'))
  if (!role) return data({ notice: null, error: 'Choose a role.' }, { status: 400 })
  const invited = await attemptAccountChange(context, () => staff.inviteStaff(user, { email, name: formText(form, 'name'), role }))
  if (!invited.ok) return data({ notice: null, error: invited.message }, { status: 400 })
  return { notice: `An invitation is on its way to ${invited.value.email}. The link in it works for 7 days.`, error: null }
}

export default function StaffAccounts({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Staff accounts</h1>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      <AdminTable caption="Everyone with a back-office account" columns={['Name', 'E-mail address', 'Role', 'Two-factor', 'Status']}>
        {loaderData.members.map((member) => (
          <tr key={member.id}>
            <td>{member.name}</td>
            <td>{member.email}</td>
            <td>{ROLE_NAMES[member.role]}</td>
            <td>{member.twoFactorEnabled ? 'On' : member.twoFactorEnrolRequired ? 'Set up at next sign-in' : 'Off'}</td>
            <td>{member.deactivated ? 'Deactivated' : member.invitationPending ? 'Invited' : 'Active'}</td>
          </tr>
        ))}
      </AdminTable>

      <section aria-labelledby="manage-heading">
        <h2 id="manage-heading">Change an account</h2>
        <p>Every change is written to the audit log. Your own account is changed on the “Your account” page.</p>
        {loaderData.members
          .filter((member) => member.id !== loaderData.selfId)
          .map((member) => (
            <MemberForms key={member.id} member={member} />
          ))}
      </section>

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
              <Options choices={ROLE_CHOICES} />
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
          <SubmitButton secondary>
            {loaderData.twoFactorRequired ? 'Stop requiring two-factor sign-in' : 'Require two-factor sign-in for everyone'}
          </SubmitButton>
        </Form>
      </section>
      <BackOfficeHomeLink />
    </>
  )
}

/** One form per change an owner may make to another member's account, each naming the member. */
function MemberForms({ member }: { member: StaffMember }) {
  const headingId = `member-${member.id}`
  const change = (kind: MemberChange['kind'], label: string, secondary = true) => (
    <Form method="post" className="admin-inline-form">
      <input type="hidden" name="intent" value="member" />
      <input type="hidden" name="memberId" value={member.id} />
      <input type="hidden" name="change" value={kind} />
      <SubmitButton secondary={secondary} aria-describedby={headingId}>
        {label}
      </SubmitButton>
    </Form>
  )
  return (
    <article className="admin-member" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {member.name} ({member.email})
      </h3>
      <Form method="post" className="form admin-inline-form">
        <input type="hidden" name="intent" value="member" />
        <input type="hidden" name="memberId" value={member.id} />
        <input type="hidden" name="change" value="set-role" />
        <FieldRow id={`role-${member.id}`} label={`Role of ${member.name}`}>
          <select id={`role-${member.id}`} name="role" defaultValue={member.role}>
            <Options choices={ROLE_CHOICES} />
          </select>
        </FieldRow>
        <SubmitButton secondary>Change role</SubmitButton>
      </Form>{' '}
      {member.deactivated ? change('reactivate', 'Reactivate') : change('deactivate', 'Deactivate')}{' '}
      {member.twoFactorEnabled ? change('reset-two-factor', 'Reset two-factor') : null}{' '}
      {member.invitationPending && !member.deactivated ? change('resend-invitation', 'Resend invitation') : null}{' '}
      {member.invitationPending || member.deactivated ? null : change('lift-sign-in-locks', 'Lift sign-in locks')}
    </article>
  )
}
