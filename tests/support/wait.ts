import { vi } from 'vitest'

/** Polls `condition` until it holds; after `timeoutMs`, fails saying what was awaited. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  await vi.waitUntil(condition, { timeout: timeoutMs, interval: 100 }).catch((error: unknown) => {
    throw new Error(`${what}: not within ${timeoutMs / 1000} s`, { cause: error })
  })
}
