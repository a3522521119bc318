import { data, Form, Link, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, MIN_PASSWORD_LENGTH, signedOutFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/set-password'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { NewPasswordFields } from '../../components/admin/AccountFields'
import { SubmitButton } from '../../components/admin/FormControls'

export function meta() {
  return adminMeta('Choose a password')
}

// The target of the links in invitation and password-reset e-mails.
export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get('token') ?? '', minLength: MIN_PASSWORD_LENGTH }
}

export async function action(args: Route.ActionArgs) {
  const form = await signedOutFormPost(args)
  const { staff } = args.context.get(servicesContext)
  const password = formText(form, 'newPassword')
  if (password !== formText(form, 'confirmation')) return data({ message: 'The two passwords differ. Type the same password twice.' }, { status: 400 })
  const result = await fromDatabase(args.context, () => staff.resetPassword(formText(form, 'token'), password))
  if (!result.ok) return data({ message: result.message }, { status: 400 })
  throw redirect('/admin/sign-in?password-set')
}

export default function SetPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.token === '') {
    return (
      <>
        <h1>Choose a password</h1>
        <p>This page needs the link from your invitation or password-reset e-mail.</p>
        <p>
          <Link to="/admin/forgot-password">Ask for a new link</Link>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>Choose a password</h1>
      <AdminMessages error={actionData?.message} />
      <Form method="post" className="form">
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields minLength={loaderData.minLength} />
        <SubmitButton>Set password</SubmitButton>
      </Form>
    </>
  )
}
