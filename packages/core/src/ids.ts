import { createHash, randomUUID } from 'node:crypto'

/** A new random row id. */
export function newId(): string {
  return randomUUID()
}

/** SHA-256 of a string, hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
