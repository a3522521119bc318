import { useCallback, useEffect, useRef, useState, type FocusEvent, type MouseEvent, type ReactNode, type Ref } from 'react'
import { Link, useLocation } from 'react-router'
import { useSiteSettings } from '../lib/site-settings'

const sectionLinks = [
  { label: 'Home', to: '/#hero' },
  { label: 'About Us', to: '/#about' },
  { label: 'Divisions', to: '/#divisions' },
] as const

const eventLinks = [
  { label: 'Conferences', to: '/conference' },
  { label: 'Workshops', to: '/workshop' },
  { label: 'In-House Training', to: '/inhouse-training' },
  { label: 'Online Training', to: '/online-training' },
] as const

/** Menu state of the header: the small-screen menu and the Events dropdown, with the closing rules of the spec. */
function useNavigationMenus() {
  const [menuOpen, setMenuOpen] = useState(false)
  const [eventsOpen, setEventsOpen] = useState(false)
  const closeAll = useCallback(() => {
    setMenuOpen(false)
    setEventsOpen(false)
  }, [])
  return {
    menuOpen,
    eventsOpen,
    toggleMenu() {
      setMenuOpen((open) => !open)
      setEventsOpen(false)
    },
    toggleEvents() {
      setEventsOpen((open) => !open)
    },
    closeEvents: useCallback(() => setEventsOpen(false), []),
    closeAll,
  }
}

/** A button that shows or hides the menu it controls, telling screen readers which and whether it is open. */
function DisclosureButton({
  ref,
  className,
  open,
  controls,
  onClick,
  children,
}: {
  ref: Ref<HTMLButtonElement>
  className: string
  open: boolean
  controls: string
  onClick: () => void
  children: ReactNode
}) {
  return (
    <button ref={ref} type="button" className={className} aria-expanded={open} aria-controls={controls} onClick={onClick}>
      {children}
    </button>
  )
}

function LinkItems({ links }: { links: ReadonlyArray<{ label: string; to: string }> }) {
  return links.map((link) => (
    <li key={link.to}>
      <Link to={link.to}>{link.label}</Link>
    </li>
  ))
}

export function Header() {
  const settings = useSiteSettings()
  const { menuOpen, eventsOpen, toggleMenu, toggleEvents, closeEvents, closeAll } = useNavigationMenus()
  const headerRef = useRef<HTMLElement>(null)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const eventsButtonRef = useRef<HTMLButtonElement>(null)
  const location = useLocation()

  // A chosen link changes the location: both menus close.
  useEffect(closeAll, [location.key, closeAll])

  // The open small-screen menu pushes the page down: it must be gone before the router measures where a
  // section link (/#about) scrolls to, or a smooth scroll ends a menu's height too far. Closing on the click
  // does that: React commits a click's update before the router's navigation, which runs as a transition.
  function closeBeforeFollowingLink(event: MouseEvent<HTMLElement>) {
    if (event.target instanceof Element && event.target.closest('a')) closeAll()
  }

  // Focus moved by the keyboard (Tab, Shift+Tab) to something outside the Events dropdown closes it, as a click
  // outside does. Focus going nowhere (a click on the list's padding) leaves it open.
  function closeEventsWhenFocusLeaves(event: FocusEvent<HTMLLIElement>) {
    const next = event.relatedTarget
    if (next instanceof Node && !event.currentTarget.contains(next)) closeEvents()
  }

  useEffect(() => {
    if (!menuOpen && !eventsOpen) return
    function onPointerDown(event: PointerEvent) {
      if (!headerRef.current?.contains(event.target as Node)) closeAll()
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return
      const focusTarget = eventsOpen ? eventsButtonRef.current : menuButtonRef.current
      closeAll()
      focusTarget?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [menuOpen, eventsOpen, closeAll])

  return (
    <header className="site-header" ref={headerRef}>
      <div className="site-header__inner">
        <Link to="/" className="brand">
          {settings?.siteName ?? 'Home'}
        </Link>
        <DisclosureButton ref={menuButtonRef} className="menu-button" open={menuOpen} controls="site-navigation" onClick={toggleMenu}>
          <span className="menu-button__bars" aria-hidden="true" />
          Menu
        </DisclosureButton>
        <nav id="site-navigation" aria-label="Main" className={menuOpen ? 'site-nav site-nav--open' : 'site-nav'} onClick={closeBeforeFollowingLink}>
          <ul className="site-nav__list">
            <LinkItems links={sectionLinks} />
            <li className={eventsOpen ? 'dropdown dropdown--open' : 'dropdown'} onBlur={closeEventsWhenFocusLeaves}>
              <DisclosureButton ref={eventsButtonRef} className="dropdown__button" open={eventsOpen} controls="events-menu" onClick={toggleEvents}>
                Events <span aria-hidden="true">▾</span>
              </DisclosureButton>
              <ul id="events-menu" className="dropdown__list">
                <LinkItems links={eventLinks} />
              </ul>
            </li>
            <li>
              <Link to="/#contact">Contact Us</Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  )
}
