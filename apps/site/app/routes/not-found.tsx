import { data } from 'react-router'
import { NotFoundPage } from '../components/ErrorPages'

// Any path no other route matches. The loader always throws, so the root error boundary renders the 404
// page; the component is what makes this a page route rather than a plain-text resource route.
export function loader() {
  throw data('Not found', { status: 404 })
}

export default NotFoundPage
