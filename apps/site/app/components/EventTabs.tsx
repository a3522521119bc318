import { Suspense, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { scrollBehavior, useHydrated } from './enhancement'

type EventTab = {
  /** Stable identifier, also the value hrefFor puts into the URL. */
  id: string
  label: string
  panel: ReactNode
}

export type EventTabsProps = {
  /** Accessible name of the tablist, e.g. "Event sections" or "Agenda days". */
  label: string
  tabs: readonly EventTab[]
  /** The tab named by the URL; an unknown id falls back to the first tab. */
  selected: string | undefined
  /** The link of a tab, e.g. `?tab=agenda`; the server renders that tab selected. */
  hrefFor: (id: string) => string
  onSelect?: (id: string) => void
}

/** The tab index that a key press on tab `index` moves to (arrows wrap), or undefined for keys the tablist ignores. */
export function tabIndexAfterKey(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count
    case 'ArrowLeft':
      return (index - 1 + count) % count
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return undefined
  }
}

function opensElsewhere(event: MouseEvent) {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey
}

/**
 * WAI-ARIA tabs whose tabs are links: without JavaScript each tab is a full navigation to its URL, with JavaScript
 * the tab switches at once (automatic activation, roving tabindex) while the URL follows, so a chosen tab can be
 * shared and the back button returns to the previous one.
 */
export function EventTabs({ label, tabs, selected, hrefFor, onSelect }: EventTabsProps) {
  const baseId = useId()
  const navigate = useNavigate()
  const hydrated = useHydrated()
  const containerRef = useRef<HTMLDivElement>(null)
  const tabElements = useRef<(HTMLAnchorElement | null)[]>([])
  // The visitor's choice shows at once, before the navigation it starts has finished; once the URL (and so
  // `selected`) changes, whether by that navigation or by the back button, the URL decides again.
  const [choice, setChoice] = useState<string | null>(null)
  const [selectedBefore, setSelectedBefore] = useState(selected)
  if (selected !== selectedBefore) {
    setSelectedBefore(selected)
    setChoice(null)
  }

  const wanted = choice ?? selected
  const activeId = tabs.some((tab) => tab.id === wanted) ? wanted : tabs[0]?.id
  const activePanel = tabs.find((tab) => tab.id === activeId)?.panel
  // Only the shown panel is rendered, and the same element is kept across this widget's own re-renders (such as
  // the one right after hydration): a panel whose code is still loading then keeps its server HTML meanwhile.
  const activePanelContent = useMemo(() => <Suspense fallback={<p className="tabs__loading">Loading…</p>}>{activePanel}</Suspense>, [activePanel])

  function choose(id: string) {
    setChoice(id)
    onSelect?.(id)
    // The whole widget, tablist first, so the focused tab stays in view below the sticky header.
    containerRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: 'start' })
  }

  function handleClick(event: MouseEvent, id: string) {
    if (opensElsewhere(event)) return
    choose(id)
  }

  function handleKeyDown(event: KeyboardEvent, index: number) {
    const target = tabIndexAfterKey(event.key, index, tabs.length)
    const tab = target === undefined ? undefined : tabs[target]
    if (target === undefined || !tab) return
    event.preventDefault()
    tabElements.current[target]?.focus()
    choose(tab.id)
    // Arrowing across tabs should not leave one history entry per key press.
    void navigate(hrefFor(tab.id), { preventScrollReset: true, replace: true })
  }

  return (
    <div ref={containerRef} className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list">
        {tabs.map((tab, index) => {
          const isActive = tab.id === activeId
          return (
            <Link
              key={tab.id}
              ref={(element) => {
                tabElements.current[index] = element
              }}
              to={hrefFor(tab.id)}
              preventScrollReset
              role="tab"
              id={`${baseId}-tab-${index}`}
              aria-selected={isActive}
              aria-controls={`${baseId}-panel-${index}`}
              // Roving tabindex needs the arrow keys; until they work every tab stays reachable with Tab.
              tabIndex={hydrated ? (isActive ? 0 : -1) : undefined}
              className="tabs__tab"
              onClick={(event) => handleClick(event, tab.id)}
              onKeyDown={(event) => handleKeyDown(event, index)}
            >
              {tab.label}
            </Link>
          )
        })}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${index}`}
          aria-labelledby={`${baseId}-tab-${index}`}
          tabIndex={0}
          hidden={tab.id !== activeId}
          className="tabs__panel"
        >
          {tab.id === activeId && activePanelContent}
        </div>
      ))}
    </div>
  )
}
