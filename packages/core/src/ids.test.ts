import { describe, expect, it } from 'vitest'
import { newId } from './ids.ts'

describe('newId', () => {
  it('makes unique ids that sort in the order they were made, so new rows append to their indexes', () => {
    const ids = Array.from({ length: 2000 }, () => newId())

    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
  })
})
