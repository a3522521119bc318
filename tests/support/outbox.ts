// Waits for a running site's outbox to be empty, so a test can assert that an e-mail was not sent without
// guessing how long the worker might take to send it.
import type { RunningSite } from './site-server.ts'

/** Give a site this METRICS_TOKEN to let `waitForEmptyOutbox` read its outbox gauges. */
export const OUTBOX_METRICS_TOKEN = 'outbox-drain-test-token-4d81c2'

async function pendingMessages(site: RunningSite): Promise<number> {
  const response = await fetch(`${site.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${OUTBOX_METRICS_TOKEN}` } })
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: start the site with METRICS_TOKEN set to OUTBOX_METRICS_TOKEN`)
  const line = (await response.text()).split('\n').find((candidate) => candidate.startsWith('outbox_pending_messages '))
  const pending = Number(line?.slice('outbox_pending_messages '.length))
  if (!Number.isInteger(pending)) throw new Error(`/metrics has no readable outbox_pending_messages: ${line ?? 'no such line'}`)
  return pending
}

/**
 * Resolves once the outbox has nothing left to send. Messages are written in the same transaction as the request
 * that queued them, and the SMTP sink records a message before it acknowledges it, so every e-mail queued before
 * this call is then in the sink: a test can assert what did not arrive.
 */
export async function waitForEmptyOutbox(site: RunningSite, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let pending = await pendingMessages(site)
  while (pending > 0) {
    if (Date.now() > deadline) throw new Error(`The outbox still had ${pending} e-mail(s) to send after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    pending = await pendingMessages(site)
  }
}
