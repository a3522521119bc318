import { certificatesZip } from '@events/core'
import { data } from 'react-router'
import { requireStaffMember } from '../../lib/admin.server'
import { auditChange } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/certificates-zip'

/** Every certificate in force of an event, one PDF each, in one ZIP for staff. */
export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const { core } = args.context.get(servicesContext)
  const eventId = args.params.eventId
  const zip = await fromDatabase(args.context, () => certificatesZip(core.backOffice, eventId))
  if (!zip) throw data('This event has no certificates in force.', { status: 404, headers })
  // The certificates carry delegates' names: who took a copy is on record.
  await auditChange(args.context, user, { action: 'certificates-downloaded', subjectType: 'event', subjectId: eventId })
  headers.set('Content-Type', 'application/zip')
  headers.set('Content-Disposition', `attachment; filename="certificates-${eventId.replace(/[^A-Za-z0-9-]+/g, '-')}.zip"`)
  return new Response(new Uint8Array(zip), { headers })
}
