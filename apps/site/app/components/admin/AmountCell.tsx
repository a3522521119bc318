import { Amount } from '../Amount'

/** A table cell holding an amount of money, aligned right with the other figures of its column. */
export function AmountCell({ cents }: { cents: number }) {
  return (
    <td className="admin-number">
      <Amount cents={cents} />
    </td>
  )
}
