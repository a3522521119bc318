// Where the system Chromium is and how it is started: shared by the browser tests and the Lighthouse bench.
import { existsSync } from 'node:fs'

/** Debian's chromium package unless CHROMIUM_PATH points elsewhere. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

// No sandbox because CI runs as root; the rest keeps Chromium from reaching the network on its own.
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** True when the Chromium binary is installed. */
export function chromiumIsInstalled(): boolean {
  return existsSync(chromiumPath)
}

/** Throws an error telling how to install Chromium when it is missing. */
export function assertChromiumInstalled(): void {
  if (chromiumIsInstalled()) return
  throw new Error(
    `Chromium was not found at ${chromiumPath}. The browser tests need it: install it with ` +
      '`apt-get update && apt-get install -y chromium` (Debian/Ubuntu, as root), ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  )
}
