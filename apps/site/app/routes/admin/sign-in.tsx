import { data, Form, Link, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { afterSignInPath, attemptAccountChange, formText, signedOutFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/sign-in'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AuthenticatorCodeField, CurrentPasswordField } from '../../components/admin/AccountFields'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { PasskeyForm, type PasskeyOptionsResult } from '../../components/admin/PasskeyForm'

export function meta() {
  return adminMeta('Sign in')
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { staff } = context.get(servicesContext)
  const url = new URL(request.url)
  if (await fromDatabase(context, () => staff.getSession(request))) throw redirect(afterSignInPath(url.searchParams.get('redirectTo')))
  return { redirectTo: url.searchParams.get('redirectTo') ?? '', passwordSet: url.searchParams.has('password-set') }
}

// Two steps on one page: the password, then, for an account with two-factor, the code from the authenticator app.
// Or one step with a passkey instead of both: its options for the browser, then the browser's answer.
export async function action(args: Route.ActionArgs) {
  const form = await signedOutFormPost(args)
  const { request, context } = args
  const { staff } = context.get(servicesContext)
  const redirectTo = formText(form, 'redirectTo')
  const step = formText(form, 'step')
  const intent = formText(form, 'intent')
  if (intent === 'passkey-options') {
    const ceremony = await attemptAccountChange(context, () => staff.beginPasskeySignIn(request))
    if (!ceremony.ok) return data<PasskeyOptionsResult>({ passkeyOptions: null, error: ceremony.message }, { status: 429 })
    return data<PasskeyOptionsResult>({ passkeyOptions: ceremony.value.options, error: null }, { headers: ceremony.value.headers })
  }
  const result = await fromDatabase(context, () =>
    step === 'code'
      ? staff.verifyTwoFactorCode(request, formText(form, 'code'))
      : intent === 'passkey'
        ? staff.signInWithPasskey(request, formText(form, 'response'))
        : staff.signIn(request, { email: formText(form, 'email'), password: formText(form, 'password') }),
  )
  if (result.status === 'signed-in') throw redirect(afterSignInPath(redirectTo), { headers: result.headers })
  if (result.status === 'two-factor-required') return data({ step: 'code' as const, message: null, redirectTo }, { headers: result.headers })
  const status = result.reason === 'rate-limited' ? 429 : result.reason === 'cross-site' ? 403 : 400
  // A wrong code ends the sign-in: the form asks for the password again.
  const nextStep = step === 'code' && result.reason !== 'sign-in-ended' ? ('code' as const) : ('password' as const)
  return data({ step: nextStep, message: result.message, redirectTo }, { status, headers: result.headers })
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData && 'step' in actionData ? actionData : undefined
  const step = answer?.step ?? 'password'
  const redirectTo = answer?.redirectTo ?? loaderData.redirectTo
  return (
    <>
      <h1>Sign in to the back office</h1>
      <AdminMessages notice={loaderData.passwordSet && !answer ? 'Your password is set. Sign in with it now.' : undefined} error={answer?.message} />
      <Form method="post" className="form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {step === 'code' ? (
          <>
            <input type="hidden" name="step" value="code" />
            <AuthenticatorCodeField autoFocus acceptBackupCode />
            <SubmitButton>Continue</SubmitButton>
          </>
        ) : (
          <>
            <FieldRow id="email" label="E-mail address">
              <input id="email" name="email" type="email" autoComplete="username" required />
            </FieldRow>
            <CurrentPasswordField label="Password" />
            <SubmitButton>Sign in</SubmitButton>
          </>
        )}
      </Form>
      {step === 'password' ? (
        <section aria-labelledby="passkey-heading">
          <h2 id="passkey-heading">Or use a passkey</h2>
          <p>A passkey on this device or your phone signs you in without your password or a code.</p>
          <PasskeyForm ceremony="sign-in" beginIntent="passkey-options" intent="passkey" submitLabel="Use a passkey">
            <input type="hidden" name="redirectTo" value={redirectTo} />
          </PasskeyForm>
        </section>
      ) : null}
      <p>
        <Link to="/admin/forgot-password">Forgot your password?</Link>
      </p>
    </>
  )
}
