import { attendanceRegisterPdf, delegateList, delegateListCsv, delegateListXlsx, type DelegateList } from '@events/core'
import { data } from 'react-router'
import { requireStaffMember } from '../../lib/admin.server'
import { auditChange } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/event-delegate-list'

interface Download {
  format: 'csv' | 'xlsx' | 'pdf'
  contentType: string
  /** `inline` opens the register in the browser, ready to print; the lists are saved as files. */
  disposition: 'attachment' | 'inline'
  fileName: (slug: string) => string
  render: (list: DelegateList, context: Route.LoaderArgs['context']) => Promise<string | Buffer>
}

// One module serves the three files of routes.ts; the address's last segment says which.
const DOWNLOADS: Record<string, Download> = {
  'delegates.csv': {
    format: 'csv',
    contentType: 'text/csv; charset=utf-8',
    disposition: 'attachment',
    fileName: (slug) => `${slug}-delegates.csv`,
    render: async (list) => delegateListCsv(list),
  },
  'delegates.xlsx': {
    format: 'xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    disposition: 'attachment',
    fileName: (slug) => `${slug}-delegates.xlsx`,
    render: (list) => delegateListXlsx(list),
  },
  'attendance-register.pdf': {
    format: 'pdf',
    contentType: 'application/pdf',
    disposition: 'inline',
    fileName: (slug) => `${slug}-attendance-register.pdf`,
    render: async (list, context) => {
      const { core, config } = context.get(servicesContext)
      const { siteName } = await core.backOffice.catalog.getSettings()
      return attendanceRegisterPdf(list, { siteName, printedAt: config.now() })
    },
  },
}

/** A slug as a file name: letters, digits and dashes only, so the Content-Disposition header needs no quoting rules. */
function fileSlug(slug: string): string {
  return slug.replace(/[^A-Za-z0-9-]+/g, '-')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const { context, params, request } = args
  const download = DOWNLOADS[new URL(request.url).pathname.split('/').pop() ?? '']
  if (!download) throw data('Not found', { status: 404 })
  const { core } = context.get(servicesContext)
  const list = await fromDatabase(context, () => delegateList(core.backOffice, params.eventId))
  if (!list) throw data(`No registrations for the event ${params.eventId}.`, { status: 404 })
  const body = await download.render(list, context)
  // The lists carry delegates' personal data: who took a copy is on record.
  await auditChange(context, user, {
    action: 'delegate-list-downloaded',
    subjectType: 'event',
    subjectId: list.event.id,
    after: { format: download.format, delegates: list.rows.length },
  })
  const fileHeaders = new Headers({
    'Content-Type': download.contentType,
    'Content-Disposition': `${download.disposition}; filename="${download.fileName(fileSlug(list.event.slug))}"`,
  })
  // A session whose expiry the guard pushed on renews its cookie; the server already marks the answer no-store.
  for (const cookie of headers.getSetCookie()) fileHeaders.append('Set-Cookie', cookie)
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), { headers: fileHeaders })
}
