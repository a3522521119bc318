import { createHash } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'

/**
 * A new row id: a UUIDv7, which starts with the millisecond it was made. New rows then go to the end of each
 * primary-key index instead of a random page of it, so a commit writes a few pages rather than one per row and
 * index.
 */
export function newId(): string {
  return uuidv7()
}

/** SHA-256 of a string, hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
