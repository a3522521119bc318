import type { ReactNode } from 'react'

/**
 * What a back-office page says about what was just done: a notice, read out politely (role status), or a refusal,
 * read out at once (role alert). Renders nothing when there is neither.
 */
export function AdminMessages({ notice, error }: { notice?: ReactNode; error?: ReactNode }) {
  return (
    <>
      {notice ? (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="admin-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  )
}
