import { refundsToPay, refundsToPayCsv } from '@events/core'
import { requireStaffMember } from '../../lib/admin.server'
import { auditChange, readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/refunds-csv'

/** The refunds owed that have an account, as CSV for the bank's bulk payment upload. */
export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const refunds = await readBackOffice(args.context, refundsToPay)
  const csv = refundsToPayCsv(refunds)
  // The file carries registrants' bank accounts: who took a copy is on record.
  await auditChange(args.context, user, {
    action: 'refunds-exported',
    subjectType: 'refunds',
    subjectId: 'bank-transfer',
    after: { refunds: refunds.filter((refund) => refund.bankDetails).length },
  })
  const fileHeaders = new Headers({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="refunds-to-pay.csv"' })
  for (const cookie of headers.getSetCookie()) fileHeaders.append('Set-Cookie', cookie)
  return new Response(csv, { headers: fileHeaders })
}
