import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, MemoryRouter, useLocation, useNavigate, useSearchParams } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { installViewport } from '../../test/viewport'
import { EventTabs, tabIndexAfterKey } from './EventTabs'

const tabs = [
  { id: 'overview', label: 'Overview', panel: <p>Theme and objectives</p> },
  { id: 'agenda', label: 'Agenda', panel: <p>Programme of both days</p> },
  { id: 'register', label: 'Register', panel: <p>Registration form</p> },
  { id: 'speakers', label: 'Speakers', panel: <p>Speaker cards</p> },
]

function EventPage({ onSelect }: { onSelect?: (id: string) => void }) {
  const [searchParams] = useSearchParams()
  const location = useLocation()
  const navigate = useNavigate()
  return (
    <>
      <EventTabs label="Event sections" tabs={tabs} selected={searchParams.get('tab') ?? undefined} hrefFor={(id) => `?tab=${id}`} onSelect={onSelect} />
      <output aria-label="Address">{location.pathname + location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
    </>
  )
}

function renderEventPage(url = '/conference/Resilience', onSelect?: (id: string) => void) {
  const Stub = createRoutesStub([{ path: '/conference/Resilience', Component: () => <EventPage onSelect={onSelect} /> }])
  render(<Stub initialEntries={[url]} />)
  return { user: userEvent.setup() }
}

function address() {
  return screen.getByRole('status', { name: 'Address' }).textContent
}

function expectSelected(label: string) {
  const tablist = screen.getByRole('tablist', { name: 'Event sections' })
  for (const tab of within(tablist).getAllByRole('tab')) {
    const isSelected = tab.textContent === label
    expect(tab).toHaveAttribute('aria-selected', String(isSelected))
    expect(tab).toHaveAttribute('tabindex', isSelected ? '0' : '-1')
  }
  const panels = screen.getAllByRole('tabpanel')
  expect(panels).toHaveLength(1)
  expect(panels[0]).toHaveAccessibleName(label)
}

describe('tabIndexAfterKey', () => {
  it.each([
    { key: 'ArrowRight', index: 0, expected: 1 },
    { key: 'ArrowRight', index: 3, expected: 0 },
    { key: 'ArrowLeft', index: 0, expected: 3 },
    { key: 'ArrowLeft', index: 2, expected: 1 },
    { key: 'Home', index: 2, expected: 0 },
    { key: 'End', index: 1, expected: 3 },
    { key: 'Enter', index: 1, expected: undefined },
    { key: 'ArrowDown', index: 1, expected: undefined },
  ])('$key from $index goes to $expected', ({ key, index, expected }) => {
    expect(tabIndexAfterKey(key, index, 4)).toBe(expected)
  })
})

describe('EventTabs', () => {
  it('renders tabs as links to their URL, the first selected by default and only its panel shown', () => {
    renderEventPage()
    const tablist = screen.getByRole('tablist', { name: 'Event sections' })
    const overview = within(tablist).getByRole('tab', { name: 'Overview' })
    expect(within(tablist).getByRole('tab', { name: 'Agenda' })).toHaveAttribute('href', '/conference/Resilience?tab=agenda')
    expectSelected('Overview')
    const panel = screen.getByRole('tabpanel')
    expect(overview).toHaveAttribute('aria-controls', panel.id)
    expect(panel).toHaveAttribute('aria-labelledby', overview.id)
    expect(panel).toHaveTextContent('Theme and objectives')
    // Hidden panels render nothing, so their (possibly lazily loaded) content costs nothing.
    expect(screen.queryByText('Programme of both days')).toBeNull()
  })

  it('opens the tab named in the URL', () => {
    renderEventPage('/conference/Resilience?tab=register')
    expectSelected('Register')
  })

  it('falls back to the first tab when the URL names an unknown one', () => {
    renderEventPage('/conference/Resilience?tab=nonsense')
    expectSelected('Overview')
  })

  it('selects a clicked tab, puts it in the URL and scrolls the tabs into view smoothly', async () => {
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView')
    const onSelect = vi.fn()
    const { user } = renderEventPage('/conference/Resilience', onSelect)
    await user.click(screen.getByRole('tab', { name: 'Agenda' }))
    expectSelected('Agenda')
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Programme of both days')
    expect(address()).toBe('/conference/Resilience?tab=agenda')
    expect(onSelect).toHaveBeenCalledWith('agenda')
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' })
    expect(scrollIntoView.mock.contexts[0]).toHaveClass('tabs')
  })

  it('scrolls without animation when the visitor prefers reduced motion', async () => {
    installViewport({ width: 1024, reducedMotion: true })
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView')
    const { user } = renderEventPage()
    await user.click(screen.getByRole('tab', { name: 'Register' }))
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'auto', block: 'start' })
  })

  it('returns to the previous tab with the back button', async () => {
    const { user } = renderEventPage()
    await user.click(screen.getByRole('tab', { name: 'Agenda' }))
    await user.click(screen.getByRole('tab', { name: 'Speakers' }))
    expectSelected('Speakers')
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expectSelected('Agenda')
    expect(address()).toBe('/conference/Resilience?tab=agenda')
  })

  it('moves focus and selection with the arrow keys, wrapping at both ends', async () => {
    const { user } = renderEventPage()
    await user.tab()
    expect(screen.getByRole('tab', { name: 'Overview' })).toHaveFocus()

    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Agenda' })).toHaveFocus()
    expectSelected('Agenda')
    expect(address()).toBe('/conference/Resilience?tab=agenda')

    await user.keyboard('{ArrowLeft}{ArrowLeft}')
    expect(screen.getByRole('tab', { name: 'Speakers' })).toHaveFocus()
    expectSelected('Speakers')

    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Overview' })).toHaveFocus()
    expectSelected('Overview')
  })

  it('jumps to the first and last tab with Home and End', async () => {
    const { user } = renderEventPage('/conference/Resilience?tab=agenda')
    await user.tab()
    expect(screen.getByRole('tab', { name: 'Agenda' })).toHaveFocus()

    await user.keyboard('{End}')
    expect(screen.getByRole('tab', { name: 'Speakers' })).toHaveFocus()
    expectSelected('Speakers')

    await user.keyboard('{Home}')
    expect(screen.getByRole('tab', { name: 'Overview' })).toHaveFocus()
    expectSelected('Overview')
    expect(address()).toBe('/conference/Resilience?tab=overview')
  })

  it('leaves the tablist with Tab to the selected panel', async () => {
    const { user } = renderEventPage('/conference/Resilience?tab=register')
    await user.tab()
    await user.tab()
    expect(screen.getByRole('tabpanel', { name: 'Register' })).toHaveFocus()
  })

  it('keeps one history entry for a run of arrow keys', async () => {
    const { user } = renderEventPage()
    await user.click(screen.getByRole('tab', { name: 'Agenda' }))
    await user.keyboard('{ArrowRight}{ArrowRight}')
    expectSelected('Speakers')
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expectSelected('Overview')
  })
})

describe('EventTabs before JavaScript', () => {
  it('keeps every tab in the focus order and renders only the selected panel visible', () => {
    const container = document.createElement('div')
    container.innerHTML = renderToString(
      <MemoryRouter initialEntries={['/conference/Resilience?tab=agenda']}>
        <EventTabs label="Event sections" tabs={tabs} selected="agenda" hrefFor={(id) => `?tab=${id}`} />
      </MemoryRouter>,
    )
    const tabElements = [...container.querySelectorAll('[role="tab"]')]
    expect(tabElements.map((tab) => tab.getAttribute('href'))).toEqual([
      '/conference/Resilience?tab=overview',
      '/conference/Resilience?tab=agenda',
      '/conference/Resilience?tab=register',
      '/conference/Resilience?tab=speakers',
    ])
    expect(tabElements.some((tab) => tab.hasAttribute('tabindex'))).toBe(false)
    const panels = [...container.querySelectorAll('[role="tabpanel"]')]
    expect(panels.map((panel) => panel.hasAttribute('hidden'))).toEqual([true, false, true, true])
  })
})
