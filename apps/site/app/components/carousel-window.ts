// Carousel arithmetic. A window always shows `perView` items (or all of them when there are fewer), so the last
// step is shortened to land on the final `perView` items rather than showing a part-empty window.

/** The visible slice of a carousel: items from `start` (inclusive) to `end` (exclusive). */
export type CarouselWindow = { start: number; end: number }

function lastStart(count: number, perView: number) {
  return Math.max(0, count - perView)
}

/** The items shown for a requested start `index`, clamped so the window is full and inside the list. */
export function carouselWindow(count: number, index: number, perView: number): CarouselWindow {
  const start = Math.min(Math.max(0, index), lastStart(count, perView))
  return { start, end: Math.min(count, start + perView) }
}

/** The start after "next": `perView` further, the final window at the end, and back to the start from there. */
export function nextIndex(count: number, index: number, perView: number): number {
  const { start } = carouselWindow(count, index, perView)
  const last = lastStart(count, perView)
  return start >= last ? 0 : Math.min(start + perView, last)
}

/** The start after "previous": `perView` back, the first window near the start, and the final window from there. */
export function previousIndex(count: number, index: number, perView: number): number {
  const { start } = carouselWindow(count, index, perView)
  return start === 0 ? lastStart(count, perView) : Math.max(0, start - perView)
}
