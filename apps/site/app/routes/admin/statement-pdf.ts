import { renderStatementPdf, statementFilename, statementOfAccount } from '@events/core'
import { data } from 'react-router'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/statement-pdf'

/** A company's statement of account as a PDF download, for staff. */
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const company = new URL(args.request.url).searchParams.get('company') ?? ''
  const statement = await fromDatabase(args.context, () => statementOfAccount(core.backOffice, company))
  if (!statement) throw data(`No registration or invoiced sponsorship deal names the company ${company}.`, { status: 404, headers })
  const pdf = await renderStatementPdf(core.backOffice, statement)
  headers.set('Content-Type', 'application/pdf')
  headers.set('Content-Disposition', `attachment; filename="${statementFilename(statement)}"`)
  return new Response(new Uint8Array(pdf), { headers })
}
