import { dealInvoicePdf } from '@events/core'
import { requireStaffMember } from '../../lib/admin.server'
import { readBackOffice } from '../../lib/backoffice.server'
import type { Route } from './+types/sponsorship-invoice'

/** A sponsorship deal's tax invoice PDF, for staff. */
export async function loader(args: Route.LoaderArgs) {
  await requireStaffMember(args)
  const invoice = await readBackOffice(args.context, (backOffice) => dealInvoicePdf(backOffice, args.params.dealId))
  if (!invoice) throw new Response('No such invoice', { status: 404 })
  return new Response(new Uint8Array(invoice.pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${invoice.filename}"`, 'Cache-Control': 'private, no-store' },
  })
}
