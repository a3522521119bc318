import { isRouteErrorResponse, Link, Outlet, useRouteError } from 'react-router'
import { useNonce } from '../../lib/nonce'
import { adminMeta } from '../../lib/admin-meta'
import adminStyles from '../../styles/admin.css?inline'

export function meta() {
  return adminMeta('Back office')
}

// The back office's stylesheet travels with its pages only, so public pages carry none of it.
function AdminShell({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  return (
    <>
      <style href="admin-styles" precedence="default" nonce={nonce}>
        {adminStyles}
      </style>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="admin-bar">
        <Link to="/admin">Back office</Link>
        <Link to="/admin/events">Delegate lists</Link>
        <a href="/">Public site</a>
      </header>
      <main id="main" className="admin-main" tabIndex={-1}>
        {children}
      </main>
    </>
  )
}

export default function AdminLayout() {
  return (
    <AdminShell>
      <Outlet />
    </AdminShell>
  )
}

function errorText(status: number | undefined): { title: string; text: string } {
  if (status === 404)
    return {
      title: 'Not found',
      text: 'Nothing is at this address in the back office. Check the reference or event in it, or find the registration in the list.',
    }
  if (status === 403) return { title: 'Not allowed', text: 'Your account may not open this page. An owner of the back office can help.' }
  if (status === 401) return { title: 'Signed out', text: 'Sign in to the back office to continue.' }
  if (status === 503) return { title: 'Temporarily unavailable', text: 'The back office cannot reach its data just now. Try again in a few minutes.' }
  return { title: 'Something went wrong', text: 'The back office could not show this page. Try again later.' }
}

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : undefined
  const { title, text } = errorText(status)
  return (
    <AdminShell>
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <Link to="/admin">Back-office home</Link> · <Link to="/admin/sign-in">Sign in</Link>
      </p>
    </AdminShell>
  )
}
