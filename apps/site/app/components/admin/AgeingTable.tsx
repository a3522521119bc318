import { AdminTable } from './AdminTable'
import { AmountCell } from './AmountCell'

/** What is owed by age (current, 30, 60, 90 days and more from the first tax invoice), one band a column, as the core words them. */
export function AgeingTable({ caption, rows }: { caption: string; rows: ReadonlyArray<{ label: string; cents: number }> }) {
  return (
    <AdminTable caption={caption} captionShown columns={rows.map((row) => ({ label: row.label, numeric: true }))}>
      <tr>
        {rows.map((row) => (
          <AmountCell key={row.label} cents={row.cents} />
        ))}
      </tr>
    </AdminTable>
  )
}
