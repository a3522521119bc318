import { describe, expect, it } from 'vitest'
import { requestIdFrom } from './request-id.ts'

const GENERATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('requestIdFrom', () => {
  it.each(['abc-123', '1-5759e988-bd862e3fe1be46a994272793', '0f1e2d3c.4b5a:6978_x', 'a'.repeat(128)])('keeps the sane id %s', (id) => {
    expect(requestIdFrom(id)).toBe(id)
  })

  it('keeps the first of repeated headers', () => {
    expect(requestIdFrom(['first-id', 'second-id'])).toBe('first-id')
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too long', 'a'.repeat(129)],
    ['with spaces', 'abc def'],
    ['with a line break', 'abc\ninjected'],
    ['with quotes', 'abc"}'],
    ['with markup', '<script>'],
  ])('generates a new id when the sent one is %s', (_case, header) => {
    const id = requestIdFrom(header)
    expect(id).toMatch(GENERATED)
    expect(requestIdFrom(header)).not.toBe(id)
  })
})
