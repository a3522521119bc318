import { randomBytes, randomInt } from 'node:crypto'
import { CODE_ALPHABET, CODE_LENGTH } from './pass-code-format.ts'

export { formatPassCode, normalisePassCode } from './pass-code-format.ts'

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
