import { describe, expect, it } from 'vitest'
import { sortSessionsPatches } from './sessionOrder.ts'

const session = (key: string, start?: string) => ({ _key: key, ...(start === undefined ? {} : { start }) })

describe('sortSessionsPatches', () => {
  it('puts a retimed day in start-time order and leaves a day in order alone', () => {
    const days = [
      { _key: 'd1', sessions: [session('a', '08:00'), session('b', '09:00')] },
      { _key: 'd2', sessions: [session('c', '10:30'), session('d', '08:30'), session('e', '09:15')] },
    ]
    expect(sortSessionsPatches(days)).toEqual([
      { set: { 'agendaDays[_key=="d2"].sessions': [session('d', '08:30'), session('e', '09:15'), session('c', '10:30')] } },
    ])
  })

  it('keeps sessions at the same time in their order, and those without a valid time last', () => {
    const days = [{ _key: 'd1', sessions: [session('x'), session('b', '09:00'), session('bad', 'banana'), session('a', '09:00')] }]
    expect(sortSessionsPatches(days)).toEqual([
      { set: { 'agendaDays[_key=="d1"].sessions': [session('b', '09:00'), session('a', '09:00'), session('x'), session('bad', 'banana')] } },
    ])
  })

  it('has nothing to do for days in order, or without sessions', () => {
    expect(sortSessionsPatches([{ _key: 'd1', sessions: [session('a', '08:00')] }, { _key: 'd2' }])).toEqual([])
  })
})
