import { useId } from 'react'
import { EventTabs } from './EventTabs'

export type AgendaSession = {
  _key: string
  time: string | null
  title: string | null
  speaker: string | null
  /** Set only for sessions that run in parallel with another. */
  room?: string | null
  isBreak: boolean | null
}

export type AgendaDay = {
  _key: string
  /** e.g. "Day 1". */
  label: string | null
  /** An ISO calendar date, e.g. 2025-07-23. */
  date: string | null
  sessions: readonly AgendaSession[] | null
}

export type AgendaProps = {
  days: readonly AgendaDay[]
  /** The day named by the URL, as its 1-based position ("1", "2"); anything else opens the first day. */
  selectedDay: string | undefined
  /** The link of a day, e.g. `?tab=agenda&day=2`. */
  hrefForDay: (day: string) => string
}

// Made on first use rather than when the panel's module loads (ahead of time, while the page is idle).
let dateFormat: Intl.DateTimeFormat | undefined

/** "Wednesday, 23 July 2025" for an ISO calendar date; the date is not a moment, so it is read as UTC. */
export function formatAgendaDate(date: string): string {
  dateFormat ??= new Intl.DateTimeFormat('en-ZA', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
  return dateFormat.format(new Date(`${date}T00:00:00Z`))
}

function dayLabel(day: AgendaDay, position: number) {
  return day.label ?? `Day ${position + 1}`
}

function AgendaDayProgramme({ day, label }: { day: AgendaDay; label: string }) {
  const sessions = day.sessions ?? []
  return (
    <div className="agenda__day">
      <h3 className="agenda__day-heading">
        {label}
        {day.date && (
          <>
            <span aria-hidden="true"> · </span>
            <time dateTime={day.date}>{formatAgendaDate(day.date)}</time>
          </>
        )}
      </h3>
      {sessions.length === 0 ? (
        <p className="agenda__empty">The programme for this day will be published soon.</p>
      ) : (
        <ol className="agenda__sessions">
          {sessions.map((session) => (
            <li key={session._key} className={session.isBreak ? 'agenda__session agenda__session--break' : 'agenda__session'}>
              <span className="agenda__time">{session.time}</span>
              <span className="agenda__title">
                {session.title}
                {session.room && <span className="agenda__room"> · {session.room}</span>}
              </span>
              {session.speaker && (
                <span className="agenda__speaker">
                  <span className="visually-hidden">Speaker: </span>
                  {session.speaker}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** The event programme: one list of sessions per day, with Day 1 / Day 2 tabs when the event runs several days. */
export function Agenda({ days, selectedDay, hrefForDay }: AgendaProps) {
  const headingId = useId()
  return (
    <section className="agenda" aria-labelledby={headingId}>
      <h2 id={headingId}>Agenda</h2>
      {days.length === 0 && <p className="agenda__empty">The agenda will be published soon.</p>}
      {days.length === 1 && days[0] && <AgendaDayProgramme day={days[0]} label={dayLabel(days[0], 0)} />}
      {days.length > 1 && (
        <EventTabs
          label="Agenda days"
          selected={selectedDay}
          hrefFor={hrefForDay}
          tabs={days.map((day, position) => ({
            id: String(position + 1),
            label: dayLabel(day, position),
            panel: <AgendaDayProgramme day={day} label={dayLabel(day, position)} />,
          }))}
        />
      )}
    </section>
  )
}
