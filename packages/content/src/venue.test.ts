import { describe, expect, it } from 'vitest'
import { venueLabel } from './venue.ts'

describe('venueLabel', () => {
  it('writes the name, then the address', () => {
    expect(venueLabel({ name: 'Indaba Hotel', address: 'Fourways, Sandton, Johannesburg' })).toBe('Indaba Hotel, Fourways, Sandton, Johannesburg')
  })

  it('leaves out what is empty', () => {
    expect(venueLabel({ name: 'Indaba Hotel', address: '' })).toBe('Indaba Hotel')
    expect(venueLabel({ name: 'Indaba Hotel', address: null })).toBe('Indaba Hotel')
    expect(venueLabel(null)).toBe('')
  })
})
