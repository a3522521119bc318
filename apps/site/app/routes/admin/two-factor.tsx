import { data, Form, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { attemptAccountChange, formText, qrCodeSvg, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/two-factor'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AuthenticatorCodeField, CurrentPasswordField } from '../../components/admin/AccountFields'
import { SubmitButton } from '../../components/admin/FormControls'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Two-factor sign-in')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args, { allowPendingTwoFactorSetup: true })
  const { staff } = args.context.get(servicesContext)
  const required = await fromDatabase(args.context, () => staff.twoFactorSetupRequired(user))
  // Owners and managers must keep it on: they are offered no way to turn it off.
  const mayTurnOff = user.role === 'staff'
  const mustSetUp = !required
    ? null
    : user.twoFactorEnrolRequired
      ? 'An owner reset your two-factor sign-in: set it up again before you continue.'
      : !mayTurnOff
        ? 'As an owner or manager you must use two-factor sign-in: set it up before you continue.'
        : 'An owner requires two-factor sign-in for every account: set it up before you continue.'
  return data({ enabled: user.twoFactorEnabled, mustSetUp, mayTurnOff, done: new URL(args.request.url).searchParams.get('done') }, { headers })
}

/** The secret inside an otpauth:// URI, for typing into an app by hand. */
function secretOf(totpURI: string): string {
  return new URL(totpURI).searchParams.get('secret') ?? ''
}

export async function action(args: Route.ActionArgs) {
  const { form } = await staffFormPost(args, { allowPendingTwoFactorSetup: true })
  const { request, context } = args
  const { staff } = context.get(servicesContext)
  const intent = formText(form, 'intent')
  if (intent === 'begin') {
    const begun = await attemptAccountChange(context, () => staff.beginTwoFactorSetup(request, formText(form, 'password')))
    if (!begun.ok) return data({ step: 'refused' as const, message: begun.message }, { status: 400 })
    const { totpURI, backupCodes } = begun.value
    return { step: 'confirm' as const, totpURI, qrCode: await qrCodeSvg(totpURI), secret: secretOf(totpURI), backupCodes, message: null }
  }
  if (intent === 'confirm') {
    const confirmed = await attemptAccountChange(context, () => staff.confirmTwoFactorSetup(request, formText(form, 'code')))
    if (confirmed.ok) throw redirect('/admin/two-factor?done=on', { headers: confirmed.value })
    const totpURI = formText(form, 'totpURI')
    return data(
      { step: 'confirm' as const, totpURI, qrCode: await qrCodeSvg(totpURI), secret: secretOf(totpURI), backupCodes: [], message: confirmed.message },
      { status: 400 },
    )
  }
  const disabled = await attemptAccountChange(context, () => staff.disableTwoFactor(request, formText(form, 'password')))
  if (disabled.ok) throw redirect('/admin/two-factor?done=off', { headers: disabled.value })
  return data({ step: 'refused' as const, message: disabled.message }, { status: 400 })
}

/** A change to two-factor sign-in, which asks for the member's password first. */
function PasswordConfirmedForm({ intent, secondary = false, children }: { intent: 'begin' | 'disable'; secondary?: boolean; children: string }) {
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value={intent} />
      <CurrentPasswordField label="Your password" />
      <SubmitButton secondary={secondary}>{children}</SubmitButton>
    </Form>
  )
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Two-factor sign-in</h1>
      {loaderData.mustSetUp ? <p className="admin-notice">{loaderData.mustSetUp}</p> : null}
      <AdminMessages
        notice={loaderData.done && !actionData ? `Two-factor sign-in is now ${loaderData.done === 'on' ? 'on' : 'off'}.` : undefined}
        error={actionData?.message}
      />
      {actionData?.step === 'confirm' ? (
        <>
          <p>Add this account to your authenticator app: scan the QR code, or type the setup address or the key below. Then type the code it shows.</p>
          {/* The SVG is drawn on the server by the qrcode library from the setup address alone. */}
          <div className="admin-qr" role="img" aria-label="QR code of the setup address" dangerouslySetInnerHTML={{ __html: actionData.qrCode }} />
          <dl>
            <dt>Setup address (otpauth)</dt>
            <dd className="admin-secret">{actionData.totpURI}</dd>
            <dt>Key to type by hand</dt>
            <dd className="admin-secret">{actionData.secret}</dd>
          </dl>
          {actionData.backupCodes.length > 0 ? (
            <>
              <h2>Backup codes</h2>
              <p>Keep these somewhere safe: each lets you sign in once without the app.</p>
              <ul className="admin-secret">
                {actionData.backupCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
            </>
          ) : null}
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="totpURI" value={actionData.totpURI} />
            <AuthenticatorCodeField />
            <SubmitButton>Turn on two-factor sign-in</SubmitButton>
          </Form>
        </>
      ) : loaderData.enabled ? (
        <>
          <p>Two-factor sign-in is on: signing in asks for a code from your authenticator app. New backup codes are made on the “Your account” page.</p>
          {loaderData.mayTurnOff ? (
            <PasswordConfirmedForm intent="disable" secondary>
              Turn off two-factor sign-in
            </PasswordConfirmedForm>
          ) : (
            <p>As an owner or manager you keep it on.</p>
          )}
        </>
      ) : (
        <>
          <p>Two-factor sign-in is off. With it on, signing in also asks for a code from an authenticator app on your phone.</p>
          <PasswordConfirmedForm intent="begin">Set up two-factor sign-in</PasswordConfirmedForm>
        </>
      )}
      <BackOfficeHomeLink />
    </>
  )
}
