import { useCallback, useState, useSyncExternalStore } from 'react'

function subscribeToNothing() {
  return () => {}
}

/**
 * False on the server and during hydration, true from the first render after it. Lets a widget render exactly the
 * server HTML while hydrating (no mismatch, no layout shift) and then switch to its interactive form.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  )
}

/** Whether `query` matches, kept up to date; `serverMatches` is assumed on the server and during hydration. */
export function useMediaQuery(query: string, serverMatches: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => serverMatches,
  )
}

/** 'smooth' unless the visitor asked the system for reduced motion. */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth'
}

/**
 * What the visitor had already entered in a server-rendered form when React took it over, or undefined on the
 * server and when this render is not hydrating that form. Read while hydrating, before React writes its controlled values into
 * the inputs, so a controlled form can take the entries over instead of wiping them: on mobile data a visitor
 * often starts filling a form before its script has arrived.
 */
export function useEntriesBeforeHydration(formSelector: string): FormData | undefined {
  const hydrated = useHydrated()
  const [entries] = useState(() => {
    if (hydrated || typeof document === 'undefined') return undefined
    const form = document.querySelector(formSelector)
    return form instanceof HTMLFormElement ? new FormData(form) : undefined
  })
  return entries
}
