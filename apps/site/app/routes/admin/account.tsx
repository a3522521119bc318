import { data, Form } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { attemptAccountChange, formText, MIN_PASSWORD_LENGTH, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/account'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { CurrentPasswordField, NewPasswordFields } from '../../components/admin/AccountFields'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { PasskeyForm, type PasskeyOptionsResult } from '../../components/admin/PasskeyForm'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Your account')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const { staff } = args.context.get(servicesContext)
  const [sessions, passkeys] = await fromDatabase(args.context, () => Promise.all([staff.listOwnSessions(args.request), staff.listPasskeys(args.request)]))
  return data(
    {
      name: user.name,
      email: user.email,
      twoFactorEnabled: user.twoFactorEnabled,
      minLength: MIN_PASSWORD_LENGTH,
      sessions: sessions.map((session) => ({ ...session, createdAt: session.createdAt.toISOString(), lastUsedAt: session.lastUsedAt.toISOString() })),
      passkeys: passkeys.map((passkey) => ({
        ...passkey,
        createdAt: passkey.createdAt?.toISOString() ?? null,
        lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
      })),
    },
    { headers },
  )
}

type ActionResult = { notice: string | null; error: string | null; backupCodes?: string[] }

export async function action(args: Route.ActionArgs) {
  const { form } = await staffFormPost(args)
  const { request, context } = args
  const { staff } = context.get(servicesContext)
  const intent = formText(form, 'intent')
  const refused = (message: string) => data<ActionResult>({ notice: null, error: message }, { status: 400 })
  if (intent === 'change-password') {
    const newPassword = formText(form, 'newPassword')
    if (newPassword !== formText(form, 'confirmation')) return refused('The two new passwords differ. Type the same password twice.')
    const changed = await attemptAccountChange(context, () => staff.changePassword(request, { currentPassword: formText(form, 'password'), newPassword }))
    if (!changed.ok) return refused(changed.message)
    return data<ActionResult>({ notice: 'Your password is changed. Your other sessions have ended.', error: null }, { headers: changed.value })
  }
  if (intent === 'end-session') {
    const ended = await attemptAccountChange(context, () => staff.endOwnSession(request, formText(form, 'sessionId')))
    if (!ended.ok) return refused(ended.message)
    return { notice: 'That session has ended.', error: null } satisfies ActionResult
  }
  if (intent === 'passkey-options') {
    const ceremony = await attemptAccountChange(context, () => staff.beginAddPasskey(request, formText(form, 'password')))
    if (!ceremony.ok) return data<PasskeyOptionsResult>({ passkeyOptions: null, error: ceremony.message }, { status: 400 })
    return data<PasskeyOptionsResult>({ passkeyOptions: ceremony.value.options, error: null }, { headers: ceremony.value.headers })
  }
  if (intent === 'add-passkey') {
    const added = await attemptAccountChange(context, () => staff.addPasskey(request, { name: formText(form, 'name'), response: formText(form, 'response') }))
    if (!added.ok) return refused(added.message)
    return { notice: 'Your passkey is added: use it to sign in without your password or a code.', error: null } satisfies ActionResult
  }
  if (intent === 'remove-passkey') {
    const removed = await attemptAccountChange(context, () => staff.removePasskey(request, formText(form, 'passkeyId')))
    if (!removed.ok) return refused(removed.message)
    return { notice: 'That passkey is removed: it no longer signs you in.', error: null } satisfies ActionResult
  }
  if (intent === 'backup-codes') {
    const codes = await attemptAccountChange(context, () => staff.regenerateBackupCodes(request, formText(form, 'password')))
    if (!codes.ok) return refused(codes.message)
    return { notice: 'Your new backup codes are below; the old ones no longer work.', error: null, backupCodes: codes.value } satisfies ActionResult
  }
  return refused('Choose what to change.')
}

/** A browser's user-agent in a few words: enough to tell one's phone from one's laptop. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser'
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser'
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : ''
  return system ? `${browser} on ${system}` : browser
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const result: ActionResult | undefined = actionData && 'notice' in actionData ? actionData : undefined
  return (
    <>
      <h1>Your account</h1>
      <p>
        {loaderData.name} ({loaderData.email})
      </p>
      <AdminMessages notice={result?.notice} error={result?.error} />
      {result?.backupCodes?.length ? (
        <section aria-labelledby="codes-heading">
          <h2 id="codes-heading">Your new backup codes</h2>
          <p>Keep these somewhere safe: each lets you sign in once without the app.</p>
          <ul className="admin-secret">
            {result.backupCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Change your password</h2>
        <p>Your other sessions end when you change it; this one stays.</p>
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="change-password" />
          <CurrentPasswordField label="Current password" />
          <NewPasswordFields minLength={loaderData.minLength} />
          <SubmitButton>Change password</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <AdminTable
          caption="Your sessions, newest first"
          scrollLabelledBy="sessions-heading"
          columns={['Browser', 'Address', 'Signed in', 'Last used', { label: 'End', hidden: true }]}
        >
          {loaderData.sessions.map((session) => (
            <tr key={session.id}>
              <td>
                {deviceOf(session.userAgent)}
                {session.current ? ' (this one)' : ''}
              </td>
              <td>{session.ipAddress ?? 'unknown'}</td>
              <td>
                <AdminTime iso={session.createdAt} precision="minute" />
              </td>
              <td>
                <AdminTime iso={session.lastUsedAt} precision="minute" />
              </td>
              <td>
                {session.current ? null : (
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="intent" value="end-session" />
                    <input type="hidden" name="sessionId" value={session.id} />
                    <SubmitButton secondary>End this session</SubmitButton>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p>A passkey signs you in without your password or a code: your device asks for its PIN, fingerprint or face instead.</p>
        {loaderData.passkeys.length > 0 ? (
          <AdminTable
            caption="Your passkeys, newest first"
            scrollLabelledBy="passkeys-heading"
            columns={['Name', 'Added', 'Last used', { label: 'Remove', hidden: true }]}
          >
            {loaderData.passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <td>{passkey.name}</td>
                <td>{passkey.createdAt ? <AdminTime iso={passkey.createdAt} precision="minute" /> : 'unknown'}</td>
                <td>{passkey.lastUsedAt ? <AdminTime iso={passkey.lastUsedAt} precision="minute" /> : 'not yet'}</td>
                <td>
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="intent" value="remove-passkey" />
                    <input type="hidden" name="passkeyId" value={passkey.id} />
                    <SubmitButton secondary aria-label={`Remove the passkey ${passkey.name}`}>
                      Remove
                    </SubmitButton>
                  </Form>
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : (
          <p>You have no passkeys yet.</p>
        )}
        <PasskeyForm ceremony="add" beginIntent="passkey-options" intent="add-passkey" submitLabel="Add a passkey">
          <FieldRow id="passkey-name" label="Name of the new passkey">
            <input id="passkey-name" name="name" maxLength={60} autoComplete="off" required aria-describedby="passkey-name-hint" />
            <p id="passkey-name-hint">For example the device it is on: “Work laptop”, “My phone”.</p>
          </FieldRow>
          <CurrentPasswordField id="passkey-password" label="Your current password" />
        </PasskeyForm>
      </section>

      {loaderData.twoFactorEnabled ? (
        <section aria-labelledby="backup-heading">
          <h2 id="backup-heading">Backup codes</h2>
          <p>New codes replace the old ones, used or not.</p>
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="backup-codes" />
            <CurrentPasswordField id="backup-codes-password" label="Your password" />
            <SubmitButton secondary>Make new backup codes</SubmitButton>
          </Form>
        </section>
      ) : null}
      <BackOfficeHomeLink />
    </>
  )
}
