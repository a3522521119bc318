import { createHash, randomFillSync } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'

// Random bytes drawn from the system a pool at a time, as node:crypto's own randomUUID() does: asking for a few
// bytes per id or secret costs a call into the system's generator each time, which showed in the registration
// profile. Each byte is handed out once.
const RANDOM_POOL_BYTES = 8 * 1024
let randomPool = new Uint8Array(0)
let randomPoolUsed = 0

/** `size` cryptographically secure random bytes (at most RANDOM_POOL_BYTES), taken from a pool. */
export function pooledRandomBytes(size: number): Uint8Array {
  if (randomPoolUsed + size > randomPool.length) {
    randomPool = randomFillSync(new Uint8Array(RANDOM_POOL_BYTES))
    randomPoolUsed = 0
  }
  randomPoolUsed += size
  return randomPool.subarray(randomPoolUsed - size, randomPoolUsed)
}

/**
 * A new row id: a UUIDv7, which starts with the millisecond it was made. New rows then go to the end of each
 * primary-key index instead of a random page of it, so a commit writes a few pages rather than one per row and
 * index.
 */
export function newId(): string {
  return uuidv7({ rng: () => pooledRandomBytes(16) })
}

/** SHA-256 of a string, hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
