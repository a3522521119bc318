/** The parts of the viewport that the site's media queries read. */
export type Viewport = { width: number; reducedMotion?: boolean }

let current: Required<Viewport> = { width: 1024, reducedMotion: false }
const openLists = new Set<FakeMediaQueryList>()

function evaluate(query: string): boolean {
  const minWidth = /\(min-width:\s*(\d+)px\)/.exec(query)
  if (minWidth) return current.width >= Number(minWidth[1])
  const maxWidth = /\(max-width:\s*(\d+)px\)/.exec(query)
  if (maxWidth) return current.width <= Number(maxWidth[1])
  if (/\(prefers-reduced-motion:\s*reduce\)/.test(query)) return current.reducedMotion
  return false
}

class FakeMediaQueryList extends EventTarget {
  onchange: ((event: Event) => void) | null = null
  constructor(readonly media: string) {
    super()
  }
  get matches() {
    return evaluate(this.media)
  }
  addListener(listener: (event: Event) => void) {
    this.addEventListener('change', listener)
  }
  removeListener(listener: (event: Event) => void) {
    this.removeEventListener('change', listener)
  }
}

/** Replaces jsdom's missing window.matchMedia with one that answers width and reduced-motion queries for `viewport`. */
export function installViewport(viewport: Viewport) {
  current = { reducedMotion: false, ...viewport }
  openLists.clear()
  window.matchMedia = (query: string) => {
    const list = new FakeMediaQueryList(query)
    openLists.add(list)
    return list as unknown as MediaQueryList
  }
}

/** Changes the viewport and fires `change` on every media query list whose answer changed, as a resize would. */
export function resizeViewport(viewport: Viewport) {
  const before = new Map([...openLists].map((list) => [list, list.matches]))
  current = { ...current, ...viewport }
  for (const [list, matched] of before) {
    if (list.matches === matched) continue
    const event = new Event('change')
    list.dispatchEvent(event)
    list.onchange?.(event)
  }
}
