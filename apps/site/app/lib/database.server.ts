import { isDatabaseFault } from '@events/core'
import { data, type RouterContextProvider } from 'react-router'
import { requestFactsContext } from './services.server'

/** How long visitors and clients are asked to wait after a database fault: long enough for a restart or a failover. */
export const RETRY_AFTER_SECONDS = 10

/**
 * Runs what a page needs from the database. A fault of the database itself (unreachable, restarting, out of disk)
 * becomes the branded "temporarily unavailable" page with 503 and Retry-After, since the same request will work
 * once the database is back; anything else stays an error of ours.
 */
export async function fromDatabase<Result>(context: Readonly<RouterContextProvider>, read: () => Promise<Result>): Promise<Result> {
  try {
    return await read()
  } catch (error) {
    if (!isDatabaseFault(error)) throw error
    context.get(requestFactsContext).log.error({ err: error }, 'A page could not read the database')
    throw data('The database is unavailable', {
      status: 503,
      headers: { 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_AFTER_SECONDS) },
    })
  }
}
