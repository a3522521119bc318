import { data, Form, Link } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { requireStaffMember } from '../../lib/admin.server'
import type { Route } from './+types/home'

export function meta() {
  return adminMeta('Home')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  return data({ name: user.name, email: user.email, role: user.role, twoFactorEnabled: user.twoFactorEnabled }, { headers })
}

const ROLE_NAMES = { owner: 'Owner', staff: 'Staff' } as const

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const owner = loaderData.role === 'owner'
  return (
    <>
      <h1>Back office</h1>
      <p>
        Signed in as <strong>{loaderData.name}</strong> ({loaderData.email}), role: <strong>{ROLE_NAMES[loaderData.role]}</strong>.
      </p>
      <nav aria-label="Back office">
        <ul className="admin-links">
          <li>
            <Link to="/admin/enquiries">Enquiries</Link>
          </li>
          <li>
            <Link to="/admin/bank-statements">Bank statements</Link>
          </li>
          <li>
            <Link to="/admin/data-requests">Personal data requests</Link>
          </li>
          <li>
            <Link to="/admin/two-factor">Two-factor sign-in ({loaderData.twoFactorEnabled ? 'on' : 'off'})</Link>
          </li>
          {owner ? (
            <>
              <li>
                <Link to="/admin/staff">Staff accounts</Link>
              </li>
              <li>
                <Link to="/admin/audit">Audit log</Link>
              </li>
            </>
          ) : null}
        </ul>
      </nav>
      <section aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">Sign out</h2>
        <Form method="post" action="/admin/sign-out" className="admin-inline-form">
          <button type="submit" className="button">
            Sign out
          </button>
        </Form>{' '}
        <Form method="post" action="/admin/sign-out" className="admin-inline-form">
          <input type="hidden" name="scope" value="everywhere" />
          <button type="submit" className="button button--secondary">
            Sign out on every device
          </button>
        </Form>
      </section>
    </>
  )
}
