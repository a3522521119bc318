import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react'
import { Link, useLocation } from 'react-router'
import { useSiteSettings } from '../lib/site-settings'

export const sectionLinks = [
  { label: 'Home', to: '/#hero' },
  { label: 'About Us', to: '/#about' },
  { label: 'Divisions', to: '/#divisions' },
] as const

export const eventLinks = [
  { label: 'Conferences', to: '/conference' },
  { label: 'Workshops', to: '/workshop' },
  { label: 'In-House Training', to: '/inhouse-training' },
  { label: 'Online Training', to: '/online-training' },
] as const

/** Menu state of the header: the small-screen menu and the Events dropdown, with the closing rules of the spec. */
export function useNavigationMenus() {
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
    closeAll,
  }
}

export function Header() {
  const settings = useSiteSettings()
  const { menuOpen, eventsOpen, toggleMenu, toggleEvents, closeAll } = useNavigationMenus()
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
        <button
          ref={menuButtonRef}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-navigation"
          onClick={toggleMenu}
        >
          <span className="menu-button__bars" aria-hidden="true" />
          Menu
        </button>
        <nav id="site-navigation" aria-label="Main" className={menuOpen ? 'site-nav site-nav--open' : 'site-nav'} onClick={closeBeforeFollowingLink}>
          <ul className="site-nav__list">
            {sectionLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
            <li className={eventsOpen ? 'dropdown dropdown--open' : 'dropdown'}>
              <button
                ref={eventsButtonRef}
                type="button"
                className="dropdown__button"
                aria-expanded={eventsOpen}
                aria-controls="events-menu"
                onClick={toggleEvents}
              >
                Events <span aria-hidden="true">▾</span>
              </button>
              <ul id="events-menu" className="dropdown__list">
                {eventLinks.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
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
