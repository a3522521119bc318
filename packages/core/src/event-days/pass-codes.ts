import { randomBytes, randomInt } from 'node:crypto'

// Letters and digits that cannot be mistaken for one another when read aloud or typed from a phone: no 0/O, 1/I.
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ'
const CODE_LENGTH = 8

/** A new pass code: eight characters of a 32-letter alphabet (40 random bits), stored without a dash. */
export function newPassCode(): string {
  let code = ''
  for (let index = 0; index < CODE_LENGTH; index++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  return code
}

/** A new pass page token: 32 random bytes, URL-safe. */
export function newPassToken(): string {
  return randomBytes(32).toString('base64url')
}

/** A pass code as people read it: `K7M2-Q9XD`. */
export function formatPassCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

/**
 * A pass code as typed or scanned, in the stored form: upper case, without spaces or dashes; undefined when it cannot
 * be one (wrong length or a letter the codes never use).
 */
export function normalisePassCode(input: string): string | undefined {
  const code = input.toUpperCase().replace(/[\s-]/g, '')
  if (code.length !== CODE_LENGTH) return undefined
  for (const letter of code) if (!CODE_ALPHABET.includes(letter)) return undefined
  return code
}
