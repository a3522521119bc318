import { redirect } from 'react-router'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/sign-out'

// Signing out is a post (a link could be followed by a prefetch or another site); a visit goes to the home page.
export async function loader(args: Route.LoaderArgs) {
  await requireStaffMember(args, { allowPendingTwoFactorSetup: true })
  throw redirect('/admin')
}

export async function action(args: Route.ActionArgs) {
  const { form } = await staffFormPost(args, { allowPendingTwoFactorSetup: true })
  const { request, context } = args
  const { staff } = context.get(servicesContext)
  const everywhere = formText(form, 'scope') === 'everywhere'
  const headers = await fromDatabase(context, () => (everywhere ? staff.signOutEverywhere(request) : staff.signOut(request)))
  throw redirect('/admin/sign-in', { headers })
}
