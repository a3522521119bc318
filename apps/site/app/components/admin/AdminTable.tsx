import type { ReactNode } from 'react'

/** A column heading: its text, and whether the column holds figures (aligned right) or its heading is for screen readers only. */
type AdminColumn = string | { label: string; numeric?: boolean; hidden?: boolean }

interface AdminTableProps {
  /** What the table holds, read out by screen readers; shown too when `captionShown`. */
  caption: ReactNode
  captionShown?: boolean
  columns: readonly AdminColumn[]
  /**
   * For a wide table: it scrolls sideways on a phone rather than widening the page, in a region named by this label
   * (or by the heading with the id `scrollLabelledBy`), focusable so keyboards can scroll it.
   */
  scrollLabel?: string
  scrollLabelledBy?: string
  /** The rows of the table's body. */
  children: ReactNode
  /** A row that sums the body up (a total), kept apart in the table's foot. */
  footer?: ReactNode
}

function ColumnHeading({ column }: { column: AdminColumn }) {
  const { label, numeric = false, hidden = false } = typeof column === 'string' ? { label: column } : column
  return (
    <th scope="col" className={numeric ? 'admin-number' : undefined}>
      {hidden ? <span className="visually-hidden">{label}</span> : label}
    </th>
  )
}

/** A back-office table: its caption, one row of column headings and the rows given. */
export function AdminTable({ caption, captionShown = false, columns, scrollLabel, scrollLabelledBy, children, footer }: AdminTableProps) {
  const table = (
    <table className="admin-table">
      <caption className={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <ColumnHeading key={typeof column === 'string' ? column : column.label} column={column} />
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
      {footer === undefined ? null : <tfoot>{footer}</tfoot>}
    </table>
  )
  if (scrollLabel === undefined && scrollLabelledBy === undefined) return table
  return (
    <div className="admin-table-scroll" role="region" aria-label={scrollLabel} aria-labelledby={scrollLabelledBy} tabIndex={0}>
      {table}
    </div>
  )
}
