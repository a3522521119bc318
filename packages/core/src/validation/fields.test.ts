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

describe('invisible formatting characters', () => {
  const INVISIBLE = [
    ['U+200E left-to-right mark', '\u200E'],
    ['U+200F right-to-left mark', '\u200F'],
    ['U+061C Arabic letter mark', '\u061C'],
    ['U+200B zero-width space', '\u200B'],
    ['U+200C zero-width non-joiner', '\u200C'],
    ['U+200D zero-width joiner', '\u200D'],
    ['U+202A left-to-right embedding', '\u202A'],
    ['U+202B right-to-left embedding', '\u202B'],
    ['U+202C pop directional formatting', '\u202C'],
    ['U+202D left-to-right override', '\u202D'],
    ['U+202E right-to-left override', '\u202E'],
    ['U+2066 left-to-right isolate', '\u2066'],
    ['U+2067 right-to-left isolate', '\u2067'],
    ['U+2068 first strong isolate', '\u2068'],
    ['U+2069 pop directional isolate', '\u2069'],
    ['U+FEFF byte-order mark', '\uFEFF'],
  ] as const
  it.each(INVISIBLE)('%s is removed from one-line and multi-line values, wherever it stands', (_name, character) => {
    expect(singleLine(`Invoice${character}gpj.exe`)).toBe('Invoicegpj.exe')
    expect(singleLine(`${character}${character}Thandi${character} Nkosi${character}`)).toBe('Thandi Nkosi')
    expect(singleLine(character)).toBe('')
    expect(multiLine(`Line one${character}\nLine two${character}`)).toBe('Line one\nLine two')
    expect(multiLine(`${character}\n${character}`)).toBe('')
  })
  it('keeps right-to-left text itself and other non-Latin letters', () => {
    expect(singleLine('שלום Salaam سلام')).toBe('שלום Salaam سلام')
    expect(singleLine('Nkosi Sikelel\u2019 iAfrika – Ŋ ǃXóõ')).toBe('Nkosi Sikelel\u2019 iAfrika – Ŋ ǃXóõ')
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
