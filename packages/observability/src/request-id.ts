import { randomUUID } from 'node:crypto'

// Long enough for the ids load balancers and tracing systems send, short and plain enough to put in a log line.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The X-Request-Id a client or load balancer sent when it is sane, otherwise a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const sent = Array.isArray(header) ? header[0] : header
  return sent !== undefined && SANE_REQUEST_ID.test(sent) ? sent : randomUUID()
}
