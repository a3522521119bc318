import { randomBytes, randomInt } from 'node:crypto'

/** Letters and digits that cannot be mistaken for one another when read aloud or typed (no 0/O, 1/I). */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ'
export const REFERENCE_LENGTH = 8

const REFERENCE_PATTERN = new RegExp(`^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`)

/** A random registration reference: 8 characters, short enough for a bank payment reference. */
export function generateReference(): string {
  let reference = ''
  for (let index = 0; index < REFERENCE_LENGTH; index++) {
    reference += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]
  }
  return reference
}

/** Normalises a reference typed by a person (case, surrounding spaces); undefined when it cannot be one. */
export function normaliseReference(value: string): string | undefined {
  const reference = value.trim().toUpperCase()
  return REFERENCE_PATTERN.test(reference) ? reference : undefined
}

/** The secret of a registration's private status page: 32 random bytes, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url')
}
