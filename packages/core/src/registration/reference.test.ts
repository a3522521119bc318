import { describe, expect, it } from 'vitest'
import { REFERENCE_ALPHABET, generateReference, generateSecret, normaliseReference } from './reference.ts'

describe('generateReference', () => {
  it('uses 8 characters from an alphabet without 0, O, 1 or I', () => {
    expect(REFERENCE_ALPHABET).toHaveLength(32)
    expect(REFERENCE_ALPHABET).not.toMatch(/[01OI]/)
    for (let index = 0; index < 1000; index++) {
      expect(generateReference()).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/)
    }
  })

  it('produces distinct references', () => {
    const references = new Set(Array.from({ length: 10_000 }, generateReference))
    expect(references.size).toBe(10_000)
  })

  it('fits a bank payment reference (letters and digits only, at most 20 characters)', () => {
    expect(generateReference()).toMatch(/^[A-Z0-9]{1,20}$/)
  })
})

describe('normaliseReference', () => {
  it.each([
    [' abcd2345 ', 'ABCD2345'],
    ['ABCD2345', 'ABCD2345'],
    ['ABCD234', undefined],
    ['ABCD2340', undefined],
    ['ABCDI345', undefined],
    ["'; drop table x", undefined],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseReference(input)).toBe(expected)
  })
})

describe('generateSecret', () => {
  it('is 32 random bytes in base64url', () => {
    const secret = generateSecret()
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
    expect(generateSecret()).not.toBe(secret)
  })
})
