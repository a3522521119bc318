import { exportAccounts } from '@events/core'
import { data } from 'react-router'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/accounting-export'

/** The export is made by posting the reports page's form; the address itself shows nothing (after the sign-in). */
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  headers.set('Allow', 'POST')
  throw data('Choose the period and the package on the reports page (/admin/reports), then download the export.', { status: 405, headers })
}

/**
 * The accounting export as a download: the reports page's form posts here (the browser submits it itself, so it works
 * without JavaScript). A refused export answers its reason, as the report downloads do, and records nothing.
 */
export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const exported = await runStaffCommand(args.context, session.user, exportAccounts, {
    package: formText(form, 'package'),
    file: formText(form, 'file'),
    from: formText(form, 'from'),
    to: formText(form, 'to'),
    again: formText(form, 'again'),
  })
  if (!exported.ok) throw data(refusalSentence(exported), { status: exported.status })
  return new Response(exported.value.csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exported.value.fileName}"`,
      'Cache-Control': 'no-store',
    },
  })
}
