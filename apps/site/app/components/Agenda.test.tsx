import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRoutesStub, useSearchParams } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Agenda, formatAgendaDate, type AgendaDay } from './Agenda'

const days: AgendaDay[] = [
  {
    _key: 'first',
    label: 'Day 1',
    date: '2025-07-23',
    sessions: [
      { _key: 's1', time: '07:30 – 08:30', title: 'Registration and coffee', speaker: null, room: null, isBreak: true },
      { _key: 's2', time: '08:30 – 09:15', title: 'Opening address', speaker: 'Dr Jane Doe, Chief Economist', room: null, isBreak: false },
    ],
  },
  {
    _key: 'second',
    label: 'Day 2',
    date: '2025-07-24',
    sessions: [{ _key: 's3', time: '09:00 – 10:00', title: 'The future of work', speaker: 'Panel', room: null, isBreak: false }],
  },
]

function AgendaTab({ agendaDays }: { agendaDays: AgendaDay[] }) {
  const [searchParams] = useSearchParams()
  return <Agenda days={agendaDays} selectedDay={searchParams.get('day') ?? undefined} hrefForDay={(day) => `?tab=agenda&day=${day}`} />
}

function renderAgenda(url = '/conference/Resilience?tab=agenda', agendaDays = days) {
  const Stub = createRoutesStub([{ path: '/conference/Resilience', Component: () => <AgendaTab agendaDays={agendaDays} /> }])
  render(<Stub initialEntries={[url]} />)
  return { user: userEvent.setup() }
}

describe('Agenda', () => {
  it('opens on Day 1, with Day 1 as the first tab', () => {
    renderAgenda()
    const tabs = within(screen.getByRole('tablist', { name: 'Agenda days' })).getAllByRole('tab')
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Day 1', 'Day 2'])
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true')
    expect(tabs[1]).toHaveAttribute('href', '/conference/Resilience?tab=agenda&day=2')
    const panel = screen.getByRole('tabpanel', { name: 'Day 1' })
    expect(panel).toHaveTextContent('Opening address')
    expect(screen.queryByText('The future of work')).toBeNull()
  })

  it('lists each session with its time, title and speaker, breaks marked apart', () => {
    renderAgenda()
    const sessions = within(screen.getByRole('tabpanel', { name: 'Day 1' })).getAllByRole('listitem')
    expect(sessions.map((session) => session.textContent)).toEqual([
      '07:30 – 08:30Registration and coffee',
      '08:30 – 09:15Opening addressSpeaker: Dr Jane Doe, Chief Economist',
    ])
    expect(sessions[0]).toHaveClass('agenda__session--break')
    expect(sessions[1]).not.toHaveClass('agenda__session--break')
  })

  it('names the room of a session that runs in parallel with another', () => {
    const parallel: AgendaDay[] = [
      {
        ...days[0]!,
        sessions: [
          { _key: 'a', time: '09:00 – 10:00', title: 'Tax update', speaker: null, room: 'Hall A', isBreak: false },
          { _key: 'b', time: '09:00 – 10:00', title: 'HR clinic', speaker: null, room: 'Boardroom', isBreak: false },
        ],
      },
      days[1]!,
    ]
    renderAgenda(undefined, parallel)
    const sessions = within(screen.getByRole('tabpanel', { name: 'Day 1' })).getAllByRole('listitem')
    expect(sessions.map((session) => session.textContent)).toEqual(['09:00 – 10:00Tax update · Hall A', '09:00 – 10:00HR clinic · Boardroom'])
  })

  it('shows the day named in the URL', () => {
    renderAgenda('/conference/Resilience?tab=agenda&day=2')
    expect(screen.getByRole('tab', { name: 'Day 2' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel', { name: 'Day 2' })).toHaveTextContent('The future of work')
  })

  it('switches days with the tabs', async () => {
    const { user } = renderAgenda()
    await user.click(screen.getByRole('tab', { name: 'Day 2' }))
    expect(screen.getByRole('tabpanel', { name: 'Day 2' })).toHaveTextContent('The future of work')
    await user.keyboard('{ArrowLeft}')
    expect(screen.getByRole('tabpanel', { name: 'Day 1' })).toHaveTextContent('Opening address')
  })

  it('shows the date of each day', () => {
    renderAgenda()
    const heading = screen.getByRole('heading', { level: 3, name: /Day 1/ })
    expect(within(heading).getByText(formatAgendaDate('2025-07-23'))).toHaveAttribute('datetime', '2025-07-23')
    expect(formatAgendaDate('2025-07-23')).toMatch(/Wednesday.*23 July 2025/)
  })

  it('says so when a day has no sessions yet', async () => {
    const { user } = renderAgenda('/conference/Resilience?tab=agenda', [days[0]!, { ...days[1]!, sessions: [] }])
    await user.click(screen.getByRole('tab', { name: 'Day 2' }))
    expect(screen.getByRole('tabpanel', { name: 'Day 2' })).toHaveTextContent('The programme for this day will be published soon.')
  })

  it('shows a one-day programme without tabs', () => {
    renderAgenda('/conference/Resilience?tab=agenda', [days[0]!])
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: /Day 1/ })).toBeVisible()
    expect(screen.getByText('Opening address')).toBeVisible()
  })
})
