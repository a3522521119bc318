import { data } from 'react-router'
import { auditActionName, auditDetailsText } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/audit'
import { AdminPager } from '../../components/admin/AdminPager'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Audit log')
}

const PAGE_SIZE = 50

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args, { role: 'owner' })
  const { staff } = args.context.get(servicesContext)
  const page = Number(new URL(args.request.url).searchParams.get('page') ?? '1')
  const log = await fromDatabase(args.context, () => staff.listAudit({ page: Number.isInteger(page) && page > 0 ? page : 1, pageSize: PAGE_SIZE }))
  return data(
    {
      page: log.page,
      hasMore: log.hasMore,
      entries: log.entries.map((entry) => ({
        id: entry.id,
        occurredAt: entry.occurredAt,
        actor: entry.actor?.email ?? null,
        action: auditActionName(entry.action),
        subject: entry.subjectId ? `${entry.subjectType} ${entry.subjectId}` : entry.subjectType,
        before: auditDetailsText(entry.before),
        after: auditDetailsText(entry.after),
        ipAddress: entry.ipAddress ?? '',
      })),
    },
    { headers },
  )
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, page, hasMore } = loaderData
  return (
    <>
      <h1>Audit log</h1>
      <p>Every sign-in and change in the back office, newest first. Times are South African.</p>
      {entries.length === 0 ? (
        <p>Nothing is recorded on this page.</p>
      ) : (
        <AdminTable caption={`Audit log, page ${page}`} columns={['When', 'Who', 'What', 'Subject', 'Before', 'After', 'Address']}>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <AdminTime iso={entry.occurredAt} />
              </td>
              <td>{entry.actor ?? 'nobody signed in'}</td>
              <td>{entry.action}</td>
              <td>{entry.subject}</td>
              <td>{entry.before}</td>
              <td>{entry.after}</td>
              <td>{entry.ipAddress}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      <AdminPager
        label="Audit log pages"
        previous={page > 1 ? { to: `/admin/audit?page=${page - 1}`, text: 'Newer entries' } : undefined}
        next={hasMore ? { to: `/admin/audit?page=${page + 1}`, text: 'Older entries' } : undefined}
      />
      <BackOfficeHomeLink />
    </>
  )
}
