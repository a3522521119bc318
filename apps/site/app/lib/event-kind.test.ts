import { describe, expect, it } from 'vitest'
import { eventKindOfRoute } from './event-kind'

describe('eventKindOfRoute', () => {
  it.each([
    ['conference', 'conference'],
    ['workshop', 'workshop'],
    ['conference/:slug', 'conference'],
    ['workshop/:slug/contact', 'workshop'],
    ['/conference/:slug', 'conference'],
  ])('%s serves %s events', (pattern, kind) => {
    expect(eventKindOfRoute(pattern)).toBe(kind)
  })

  it('refuses a route that serves no kind of event', () => {
    expect(() => eventKindOfRoute('sponsorship/contact')).toThrow(/not an event route/)
  })
})
