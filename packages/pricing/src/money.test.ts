import { describe, expect, it } from 'vitest'
import { formatAmount, formatRand, parseRandAmount, randsToCents } from './money.ts'

describe('formatRand', () => {
  it.each([
    [0, 'R 0.00'],
    [5, 'R 0.05'],
    [50, 'R 0.50'],
    [100, 'R 1.00'],
    [99_999, 'R 999.99'],
    [100_000, 'R 1 000.00'],
    [976_350, 'R 9 763.50'],
    [2_756_550, 'R 27 565.50'],
    [10_000_000, 'R 100 000.00'],
    [100_000_000, 'R 1 000 000.00'],
    [12_345_678_901, 'R 123 456 789.01'],
    [-5, '-R 0.05'],
    [-100_000, '-R 1 000.00'],
    [-976_350, '-R 9 763.50'],
  ])('formats %d cents as %s', (cents, expected) => {
    expect(formatRand(cents)).toBe(expected)
  })
})

describe('formatAmount', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [100, '1.00'],
    [100_000, '1000.00'],
    [976_350, '9763.50'],
    [100_000_000, '1000000.00'],
    [-5, '-0.05'],
    [-976_350, '-9763.50'],
  ])('formats %d cents as %s', (cents, expected) => {
    expect(formatAmount(cents)).toBe(expected)
  })
})

describe.each([
  ['formatRand', formatRand],
  ['formatAmount', formatAmount],
])('%s rejects what is not whole cents', (_name, format) => {
  it.each([0.5, 976_350.1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])('%s', (cents) => {
    expect(() => format(cents)).toThrow(RangeError)
  })
})

describe('randsToCents', () => {
  it.each([
    [0, 0],
    [8490, 849_000],
    [7990.5, 799_050],
    [7990.55, 799_055],
    [19.99, 1999],
    [0.1 + 0.2, 30],
    [0.07, 7],
    [1.15 * 8490, 976_350],
    [1.005, 101],
    [0.145, 15],
    [0.004, 0],
    [0.005, 1],
    [34_950, 3_495_000],
    [-19.99, -1999],
    [-1.005, -101],
  ])('converts R%s to %d cents', (rands, cents) => {
    expect(randsToCents(rands)).toBe(cents)
  })

  it('never returns negative zero', () => {
    expect(Object.is(randsToCents(-0.001), 0)).toBe(true)
    expect(Object.is(randsToCents(-0), 0)).toBe(true)
  })

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e14])('rejects R%s', (rands) => {
    expect(() => randsToCents(rands)).toThrow(RangeError)
  })
})

describe('parseRandAmount', () => {
  it.each([
    ['8990', 899_000],
    ['8 990.00', 899_000],
    ['R 8,990.00', 899_000],
    ['R8990', 899_000],
    ['r 8 990', 899_000],
    ['ZAR 8990.5', 899_050],
    ['  R\u00a08\u00a0990.55  ', 899_055],
    ['8 990,50', 899_050],
    ['8990,5', 899_050],
    ['20 677.00', 2_067_700],
    ['1,234,567.89', 123_456_789],
    ['0', 0],
    ['0.07', 7],
  ])('reads %j as %d cents', (text, cents) => {
    expect(parseRandAmount(text)).toBe(cents)
  })

  it.each([
    '',
    'R',
    'abc',
    'eight thousand',
    '-500',
    '8990.001',
    '8,99.00',
    '89 90',
    '8.990,00',
    '8,990,5',
    '1e5',
    '0x10',
    '8990 R',
    'R 8 990.00.00',
    '99999999999999999',
  ])('refuses %j', (text) => {
    expect(parseRandAmount(text)).toBeUndefined()
  })
})
