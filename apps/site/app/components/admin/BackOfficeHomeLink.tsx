import { Link } from 'react-router'

/** The way back to the dashboard at the foot of every back-office screen below it. */
export function BackOfficeHomeLink() {
  return (
    <p>
      <Link to="/admin">Back-office home</Link>
    </p>
  )
}
