import { formatAdminDay, formatAdminMinute, formatAdminTime } from '../../lib/admin-format'

/** A moment in a back-office screen, in South African time: to the second, to the minute, or its day only. */
export function AdminTime({ iso, precision = 'second' }: { iso: string; precision?: 'second' | 'minute' | 'day' }) {
  const text = precision === 'day' ? formatAdminDay(iso) : precision === 'minute' ? formatAdminMinute(iso) : formatAdminTime(iso)
  return <time dateTime={iso}>{text}</time>
}
