import { findPersonalData } from '@events/core'
import { data } from 'react-router'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { actingStaff, attemptChange, backOfficeContext } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { requestFactsContext, servicesContext } from '../../lib/services.server'
import type { Route } from './+types/data-requests-export'

// A resource route: its answer is the file itself, which a page's action cannot send.
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  headers.set('Content-Type', 'text/plain; charset=utf-8')
  return new Response('Exports are made from the Personal data requests page (/admin/data-requests).\n', { headers })
}

/** Everything held about the posted address as one JSON file, the export recorded in the audit log. */
export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { context } = args
  const { staff: staffAccounts } = context.get(servicesContext)
  const { clientIp } = context.get(requestFactsContext)
  const found = await attemptChange(context, () => findPersonalData(backOfficeContext(context), formText(form, 'email')))
  if (!found.ok) throw data(found.message, { status: 400 })
  const report = found.value
  const counts = {
    registrations: report.registrations.length,
    enquiries: report.enquiries.length,
    waitingList: report.waitingList.length,
    sponsorshipDeals: report.sponsorshipDeals.length,
    emails: report.emails.length,
  }
  await fromDatabase(context, () =>
    staffAccounts.recordAudit({
      actor: actingStaff(session.user).actor,
      action: 'personal-data-exported',
      subjectType: 'data-subject',
      subjectId: report.email,
      after: counts,
      ipAddress: clientIp,
    }),
  )
  const headers = new Headers(session.headers)
  headers.set('Content-Type', 'application/json; charset=utf-8')
  headers.set('Content-Disposition', `attachment; filename="personal-data-${report.email.replace(/[^a-z0-9@._-]/g, '_')}.json"`)
  return new Response(`${JSON.stringify(report, null, 2)}\n`, { headers })
}
