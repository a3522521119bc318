import { eventFinanceReport, eventFinanceXlsx, isBackOfficeError, vatRegister, vatRegisterCsv, vatRegisterXlsx, type BackOfficeContext } from '@events/core'
import { data } from 'react-router'
import { requireStaffMember } from '../../lib/admin.server'
import { backOfficeContext, businessToday } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { requestedPeriod } from '../../lib/report-period'
import type { Route } from './+types/reports-download'
import { backOfficeRefusal } from '../../lib/refusals'

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

interface Download {
  contentType: string
  fileName: (period: { from: string; to: string }) => string
  render: (backOffice: BackOfficeContext, period: { from: string; to: string }) => Promise<string | Buffer>
}

// One module serves the report files of routes.ts; the address's last segment says which.
const DOWNLOADS: Record<string, Download> = {
  'events.xlsx': {
    contentType: XLSX,
    fileName: () => 'money-per-event.xlsx',
    render: async (backOffice) => eventFinanceXlsx(await eventFinanceReport(backOffice)),
  },
  'vat-register.csv': {
    contentType: 'text/csv; charset=utf-8',
    fileName: ({ from, to }) => `vat-register-${from}-to-${to}.csv`,
    render: async (backOffice, period) => vatRegisterCsv(await vatRegister(backOffice, period)),
  },
  'vat-register.xlsx': {
    contentType: XLSX,
    fileName: ({ from, to }) => `vat-register-${from}-to-${to}.xlsx`,
    render: async (backOffice, period) => vatRegisterXlsx(await vatRegister(backOffice, period)),
  },
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const url = new URL(args.request.url)
  const download = DOWNLOADS[url.pathname.split('/').pop() ?? '']
  if (!download) throw data('Not found', { status: 404 })
  const period = requestedPeriod(url, businessToday(args.context))
  let body: string | Buffer
  try {
    body = await fromDatabase(args.context, () => download.render(backOfficeContext(args.context), period))
  } catch (error) {
    if (isBackOfficeError(error)) throw data(backOfficeRefusal(error).message, { status: 400 })
    throw error
  }
  const fileHeaders = new Headers({ 'Content-Type': download.contentType, 'Content-Disposition': `attachment; filename="${download.fileName(period)}"` })
  for (const cookie of headers.getSetCookie()) fileHeaders.append('Set-Cookie', cookie)
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), { headers: fileHeaders })
}
