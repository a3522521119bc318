import { describe, expect, it } from 'vitest'
import { OPTION_KEYS, capMessage, checkDelegateCap, delegateCap, isOptionKey, isTableOption, type OptionKey } from './options.ts'

describe('option keys', () => {
  it('lists the five options of the API', () => {
    expect(OPTION_KEYS).toEqual(['venue', 'early-bird', 'online', 'table-5', 'table-10'])
    expect(Object.isFrozen(OPTION_KEYS)).toBe(true)
  })

  it.each([
    ['venue', true],
    ['early-bird', true],
    ['online', true],
    ['table-5', true],
    ['table-10', true],
    ['Venue', false],
    ['earlybird', false],
    ['table-20', false],
    ['', false],
    [undefined, false],
    [null, false],
    [5, false],
    [['venue'], false],
  ])('isOptionKey(%j) is %s', (value, expected) => {
    expect(isOptionKey(value)).toBe(expected)
  })
})

describe('caps', () => {
  it.each([
    ['venue', false, undefined],
    ['early-bird', false, undefined],
    ['online', false, undefined],
    ['table-5', true, 5],
    ['table-10', true, 10],
  ] as const)('%s: table %s, cap %s', (key, table, cap) => {
    expect(isTableOption(key)).toBe(table)
    expect(delegateCap(key)).toBe(cap)
  })

  it.each([
    [5, 'You can only add up to 5 delegates for this option.'],
    [10, 'You can only add up to 10 delegates for this option.'],
  ])('words the cap of %d as the specification does', (cap, message) => {
    expect(capMessage(cap)).toBe(message)
  })

  it('rejects an unknown key', () => {
    expect(() => delegateCap('vip' as OptionKey)).toThrow(RangeError)
  })
})

describe('checkDelegateCap', () => {
  it.each([
    [undefined, 0],
    [undefined, 50],
    ['venue', 1],
    ['early-bird', 25],
    ['online', 100],
    ['table-5', 0],
    ['table-5', 1],
    ['table-5', 5],
    ['table-10', 6],
    ['table-10', 10],
  ] as const)('allows %s with %d delegate(s)', (key, delegates) => {
    expect(checkDelegateCap(key, delegates)).toEqual({ ok: true })
  })

  it.each([
    ['table-5', 6, 5, 'You can only add up to 5 delegates for this option.'],
    ['table-5', 11, 5, 'You can only add up to 5 delegates for this option.'],
    ['table-10', 11, 10, 'You can only add up to 10 delegates for this option.'],
  ] as const)('refuses %s with %d delegates (cap %d)', (key, delegates, cap, message) => {
    expect(checkDelegateCap(key, delegates)).toEqual({ ok: false, cap, message })
  })

  it.each([-1, 2.5, Number.NaN])('rejects a delegate count of %s', (delegates) => {
    expect(() => checkDelegateCap('table-5', delegates)).toThrow(RangeError)
    expect(() => checkDelegateCap(undefined, delegates)).toThrow(RangeError)
  })
})
