type Session = { _key?: string; start?: string }
type AgendaDay = { _key?: string; sessions?: Session[] }

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/
// A session without a valid start time keeps its place after the timed ones: it cannot be placed by time.
const startOf = (session: Session) => (typeof session.start === 'string' && TIME_OF_DAY.test(session.start) ? session.start : '99:99')

/**
 * The patches that put each agenda day's sessions in start-time order, one per day out of order (none when all are
 * in order). Sessions starting at the same time keep their order, and no session moves to another day.
 */
export function sortSessionsPatches(days: AgendaDay[]): { set: Record<string, Session[]> }[] {
  return days.flatMap((day, index) => {
    const sessions = day.sessions ?? []
    const sorted = [...sessions].sort((a, b) => startOf(a).localeCompare(startOf(b)))
    if (sorted.every((session, position) => session === sessions[position])) return []
    const place = day._key ? `_key=="${day._key}"` : String(index)
    return [{ set: { [`agendaDays[${place}].sessions`]: sorted } }]
  })
}
