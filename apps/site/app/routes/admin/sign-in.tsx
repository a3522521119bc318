import { data, Form, Link, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { afterSignInPath, formText, refuseCrossSitePost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/sign-in'

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
export async function action(args: Route.ActionArgs) {
  refuseCrossSitePost(args)
  const { request, context } = args
  const { staff } = context.get(servicesContext)
  const form = await request.formData()
  const redirectTo = formText(form, 'redirectTo')
  const step = formText(form, 'step')
  const result = await fromDatabase(context, () =>
    step === 'code'
      ? staff.verifyTwoFactorCode(request, formText(form, 'code'))
      : staff.signIn(request, { email: formText(form, 'email'), password: formText(form, 'password') }),
  )
  if (result.status === 'signed-in') throw redirect(afterSignInPath(redirectTo), { headers: result.headers })
  if (result.status === 'two-factor-required') return data({ step: 'code' as const, message: null, redirectTo }, { headers: result.headers })
  const status = result.reason === 'rate-limited' ? 429 : result.reason === 'cross-site' ? 403 : 400
  return data({ step: step === 'code' ? ('code' as const) : ('password' as const), message: result.message, redirectTo }, { status, headers: result.headers })
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const step = actionData?.step ?? 'password'
  const redirectTo = actionData?.redirectTo ?? loaderData.redirectTo
  return (
    <>
      <h1>Sign in to the back office</h1>
      {loaderData.passwordSet && !actionData ? <p className="admin-notice" role="status">Your password is set. Sign in with it now.</p> : null}
      {actionData?.message ? (
        <p className="admin-error" role="alert">
          {actionData.message}
        </p>
      ) : null}
      <Form method="post" className="form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {step === 'code' ? (
          <>
            <input type="hidden" name="step" value="code" />
            <div className="form__field">
              <label htmlFor="code">Code from your authenticator app</label>
              <input id="code" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus />
            </div>
            <button type="submit" className="button">
              Continue
            </button>
          </>
        ) : (
          <>
            <div className="form__field">
              <label htmlFor="email">E-mail address</label>
              <input id="email" name="email" type="email" autoComplete="username" required />
            </div>
            <div className="form__field">
              <label htmlFor="password">Password</label>
              <input id="password" name="password" type="password" autoComplete="current-password" required />
            </div>
            <button type="submit" className="button">
              Sign in
            </button>
          </>
        )}
      </Form>
      <p>
        <Link to="/admin/forgot-password">Forgot your password?</Link>
      </p>
    </>
  )
}
