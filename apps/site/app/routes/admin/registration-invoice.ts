import { registrationInvoicePdf } from '@events/core'
import { data } from 'react-router'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/registration-invoice'

/**
 * A registration's tax invoice as a PDF download, for staff (the registrant's own copy needs their private link): the
 * current one at `invoice.pdf`, any it was issued at `invoices/INV-000001.pdf`, a replaced one as it was issued.
 */
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const { reference, file } = args.params as { reference: string; file?: string }
  const invoice = await fromDatabase(args.context, () => registrationInvoicePdf(core.backOffice, reference, file?.replace(/\.pdf$/, '')))
  if (!invoice) throw data(`Registration ${reference} has no ${file ? `tax invoice ${file.replace(/\.pdf$/, '')}` : 'tax invoice'}.`, { status: 404, headers })
  headers.set('Content-Type', 'application/pdf')
  headers.set('Content-Disposition', `attachment; filename="${invoice.filename}"`)
  return new Response(new Uint8Array(invoice.pdf), { headers })
}
