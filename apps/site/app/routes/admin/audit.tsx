import { data, Link } from 'react-router'
import { formatAdminTime } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/audit'
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
        action: entry.action,
        subject: entry.subjectId ? `${entry.subjectType} ${entry.subjectId}` : entry.subjectType,
        before: entry.before === null ? '' : JSON.stringify(entry.before),
        after: entry.after === null ? '' : JSON.stringify(entry.after),
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
        <table className="admin-table">
          <caption className="visually-hidden">Audit log, page {page}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Subject</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <time dateTime={entry.occurredAt}>{formatAdminTime(entry.occurredAt)}</time>
                </td>
                <td>{entry.actor ?? 'nobody signed in'}</td>
                <td>{entry.action}</td>
                <td>{entry.subject}</td>
                <td>
                  <code>{entry.before}</code>
                </td>
                <td>
                  <code>{entry.after}</code>
                </td>
                <td>{entry.ipAddress}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Audit log pages">
        <ul className="admin-links">
          {page > 1 ? (
            <li>
              <Link to={`/admin/audit?page=${page - 1}`}>Newer entries</Link>
            </li>
          ) : null}
          {hasMore ? (
            <li>
              <Link to={`/admin/audit?page=${page + 1}`}>Older entries</Link>
            </li>
          ) : null}
        </ul>
      </nav>
      <BackOfficeHomeLink />
    </>
  )
}
