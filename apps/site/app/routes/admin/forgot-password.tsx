import { Form, Link } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, signedOutFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import type { Route } from './+types/forgot-password'

export function meta() {
  return adminMeta('Forgot password')
}

export async function action(args: Route.ActionArgs) {
  const form = await signedOutFormPost(args)
  const { request, context } = args
  const { staff } = context.get(servicesContext)
  const email = formText(form, 'email')
  await fromDatabase(context, () => staff.requestPasswordReset(request, email))
  // The same answer whether or not the address has an account, so the page cannot be used to find accounts.
  return { sent: true }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Forgot your password?</h1>
      {actionData?.sent ? (
        <p className="admin-notice" role="status">
          If that address has a back-office account, an e-mail with a link to choose a new password is on its way. The link works for 30 minutes.
        </p>
      ) : (
        <Form method="post" className="form">
          <FieldRow id="email" label="E-mail address of your account">
            <input id="email" name="email" type="email" autoComplete="username" required />
          </FieldRow>
          <SubmitButton>Send me a link</SubmitButton>
        </Form>
      )}
      <p>
        <Link to="/admin/sign-in">Back to sign in</Link>
      </p>
    </>
  )
}
