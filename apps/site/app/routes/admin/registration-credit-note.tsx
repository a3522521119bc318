import { creditNoteDownloadByReference } from '@events/core'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/registration-credit-note'

/** A registration's credit note as a PDF download, for staff: /admin/registrations/{reference}/credit-notes/CN-000001.pdf. */
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const number = args.params.file.replace(/\.pdf$/, '')
  const download = await fromDatabase(args.context, () => creditNoteDownloadByReference(core.db, args.params.reference, number))
  headers.set('Cache-Control', 'no-store')
  if (!download) {
    headers.set('Content-Type', 'text/plain; charset=utf-8')
    return new Response('No credit note of this registration has that number.', { status: 404, headers })
  }
  headers.set('Content-Type', 'application/pdf')
  headers.set('Content-Disposition', `attachment; filename="${download.filename}"`)
  return new Response(new Uint8Array(download.pdf), { headers })
}
