import { describe, expect, it } from 'vitest'
import { isEmailAddress, isTelephoneNumber, isTicked, multiLine, singleLine } from './fields.ts'

describe('isEmailAddress', () => {
  it.each([
    ['thandi@acme.example.com', true],
    ['first.last+tag@sub.example.co.za', true],
    ["o'brien@example.ie", true],
    ['', false],
    ['plain', false],
    ['no-domain@', false],
    ['@no-local.com', false],
    ['no-dot@localhost', false],
    ['two@@example.com', false],
    ['space in@example.com', false],
    ['bad@-example.com', false],
    ['victim@example.com\r\nBcc: evil@example.net', false],
    ['evil@example.com>, other@example.net', false],
    [`${'a'.repeat(65)}@example.com`, false],
    [`a@${'b'.repeat(250)}.com`, false],
  ])('%j -> %s', (address, valid) => {
    expect(isEmailAddress(address)).toBe(valid)
  })
})

describe('singleLine', () => {
  it.each([
    ['  Acme  Legal ', 'Acme Legal'],
    ['Evil\r\nBcc: someone@example.com', 'Evil Bcc: someone@example.com'],
    ['Tab\there', 'Tab here'],
    ['Line\u2028separator', 'Line separator'],
    [42, ''],
    [null, ''],
    [{ toString: () => 'object' }, ''],
  ])('%j -> %j', (input, expected) => {
    expect(singleLine(input)).toBe(expected)
  })
})

describe('multiLine', () => {
  it('keeps line breaks, normalised, and drops other control characters', () => {
    expect(multiLine(' 12 Main Road\r\nRosebank\rJohannesburg\u0000 ')).toBe('12 Main Road\nRosebank\nJohannesburg')
  })
})

describe('isTicked', () => {
  it.each([
    [true, true],
    ['on', true],
    ['true', true],
    [false, false],
    ['false', false],
    ['', false],
    [undefined, false],
  ])('%j -> %s', (value, ticked) => {
    expect(isTicked(value)).toBe(ticked)
  })
})

describe('bidirectional controls', () => {
  const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']
  it.each(controls.map((control) => [control.codePointAt(0)?.toString(16), control]))(
    'U+%s is removed from one-line and multi-line values',
    (_code, control) => {
      expect(singleLine(`Invoice${control}gpj.exe`)).toBe('Invoicegpj.exe')
      expect(multiLine(`Line one${control}\nLine two`)).toBe('Line one\nLine two')
    },
  )
  it('keeps right-to-left text itself', () => {
    expect(singleLine('שלום Salaam سلام')).toBe('שלום Salaam سلام')
  })
})

describe('isTelephoneNumber', () => {
  it.each([
    ['011 555 0100', true],
    ['+27 82 555 0101', true],
    ['(021) 555-0100', true],
    ['+44 20 7946 0958', true],
    ['12345', false],
    ['011 555', false],
    ['+27 11 555 0100 ext', false],
    ['not a number', false],
  ])('%j -> %s', (value, valid) => {
    expect(isTelephoneNumber(value)).toBe(valid)
  })
})
