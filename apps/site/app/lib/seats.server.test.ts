import { seatStatusOf } from '@events/core'
import { describe, expect, it } from 'vitest'
import { hasSeatLimit, seatNotice } from './seats.server'

const hybrid = ['venue', 'early-bird', 'online']

describe('seatNotice', () => {
  it('says nothing while more than 10 seats remain, or where the event sets no limit', () => {
    expect(seatNotice(seatStatusOf({ venueCapacity: 200 }, hybrid, { venue: 189, online: 0 }))).toBeUndefined()
    expect(seatNotice(undefined)).toBeUndefined()
    expect(hasSeatLimit({ venueCapacity: null, onlineCapacity: undefined })).toBe(false)
  })

  it('counts the last 10 seats at the venue down to one', () => {
    expect(seatNotice(seatStatusOf({ venueCapacity: 200 }, hybrid, { venue: 190, online: 0 }))).toBe('Only 10 seats left at the venue')
    expect(seatNotice(seatStatusOf({ venueCapacity: 200 }, hybrid, { venue: 199, online: 0 }))).toBe('Only 1 seat left at the venue')
  })

  it('is sold out at the venue while online places remain, and sold out once nothing the event offers remains', () => {
    expect(seatNotice(seatStatusOf({ venueCapacity: 200 }, hybrid, { venue: 200, online: 30 }))).toBe('Sold out at the venue')
    expect(seatNotice(seatStatusOf({ venueCapacity: 200, onlineCapacity: 30 }, hybrid, { venue: 200, online: 30 }))).toBe('Sold out: join the waiting list')
    // An event without online attendance is sold out with its room.
    expect(seatNotice(seatStatusOf({ venueCapacity: 20 }, ['venue', 'table-5'], { venue: 20, online: 0 }))).toBe('Sold out: join the waiting list')
  })

  it('counts the last online places as it counts the venue’s seats', () => {
    const limited = { venueCapacity: 200, onlineCapacity: 30 }
    expect(seatNotice(seatStatusOf(limited, hybrid, { venue: 200, online: 29 }))).toBe('Sold out at the venue; only 1 online place left')
    expect(seatNotice(seatStatusOf(limited, hybrid, { venue: 195, online: 27 }))).toBe('Only 5 seats left at the venue; only 3 online places left')
    expect(seatNotice(seatStatusOf(limited, hybrid, { venue: 10, online: 28 }))).toBe('Only 2 online places left')
    expect(seatNotice(seatStatusOf(limited, hybrid, { venue: 10, online: 30 }))).toBe('Sold out online')
    // An event that offers no online attendance says nothing of online places.
    expect(seatNotice(seatStatusOf(limited, ['venue'], { venue: 10, online: 30 }))).toBeUndefined()
  })
})
