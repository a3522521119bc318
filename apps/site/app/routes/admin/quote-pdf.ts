import { quoteDownload } from '@events/core'
import { data } from 'react-router'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/quote-pdf'

/** A quotation's PDF by its number (/admin/quotes/Q-000001.pdf), for staff. */
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const number = args.params.file.replace(/\.pdf$/, '')
  const quote = await fromDatabase(args.context, () => quoteDownload(core.backOffice, number))
  if (!quote) throw data(`There is no quotation ${number}.`, { status: 404, headers })
  headers.set('Content-Type', 'application/pdf')
  headers.set('Content-Disposition', `attachment; filename="${quote.filename}"`)
  return new Response(new Uint8Array(quote.pdf), { headers })
}
