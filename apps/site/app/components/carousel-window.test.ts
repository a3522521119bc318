import { describe, expect, it } from 'vitest'
import { carouselWindow, nextIndex, previousIndex } from './carousel-window'

/** The starts that repeated presses of a button visit from 0, until it comes back to 0. */
function tour(step: (count: number, index: number, perView: number) => number, count: number, perView: number) {
  const starts = [0]
  for (let index = step(count, 0, perView); index !== 0; index = step(count, index, perView)) {
    starts.push(index)
    if (starts.length > count + 1) throw new Error('the carousel never returns to the start')
  }
  return starts
}

describe('carousel from 769 px wide (three at a time)', () => {
  it.each([
    { count: 16, forward: [0, 3, 6, 9, 12, 13], backward: [0, 13, 10, 7, 4, 1] },
    { count: 11, forward: [0, 3, 6, 8], backward: [0, 8, 5, 2] },
    { count: 4, forward: [0, 1], backward: [0, 1] },
    { count: 3, forward: [0], backward: [0] },
    { count: 2, forward: [0], backward: [0] },
    { count: 1, forward: [0], backward: [0] },
  ])('$count speakers: next visits $forward, previous visits $backward', ({ count, forward, backward }) => {
    expect(tour(nextIndex, count, 3)).toEqual(forward)
    expect(tour(previousIndex, count, 3)).toEqual(backward)
  })

  it.each([
    { count: 16, index: 0, window: { start: 0, end: 3 } },
    { count: 16, index: 13, window: { start: 13, end: 16 } },
    { count: 11, index: 9, window: { start: 8, end: 11 } },
    { count: 4, index: 3, window: { start: 1, end: 4 } },
    { count: 2, index: 0, window: { start: 0, end: 2 } },
    { count: 1, index: 5, window: { start: 0, end: 1 } },
    { count: 0, index: 0, window: { start: 0, end: 0 } },
  ])('$count speakers from $index show $window', ({ count, index, window }) => {
    expect(carouselWindow(count, index, 3)).toEqual(window)
  })

  it.each([16, 11, 4])('previous from the start shows the final three of %i speakers', (count) => {
    const { start, end } = carouselWindow(count, previousIndex(count, 0, 3), 3)
    expect([start, end]).toEqual([count - 3, count])
  })

  it.each([16, 11, 4])('next from the final three of %i speakers returns to the start', (count) => {
    expect(nextIndex(count, count - 3, 3)).toBe(0)
  })
})

describe('carousel below 769 px (one at a time)', () => {
  it.each([16, 11, 4, 3, 2, 1])('%i speakers: next and previous step by one and wrap', (count) => {
    const all = Array.from({ length: count }, (_, index) => index)
    expect(tour(nextIndex, count, 1)).toEqual(all)
    expect(tour(previousIndex, count, 1)).toEqual([0, ...all.slice(1).reverse()])
  })

  it.each([16, 11, 4, 3, 2, 1])('%i speakers: each window holds exactly one speaker', (count) => {
    for (let index = 0; index < count; index += 1) {
      expect(carouselWindow(count, index, 1)).toEqual({ start: index, end: index + 1 })
    }
  })
})

describe('switching between widths', () => {
  it('keeps a one-at-a-time position that no longer fits three to the final three', () => {
    expect(carouselWindow(11, 10, 3)).toEqual({ start: 8, end: 11 })
    expect(nextIndex(11, 10, 3)).toBe(0)
    expect(previousIndex(11, 10, 3)).toBe(5)
  })
})
