// The scans a check-in desk could not send (the venue's Wi-Fi dropped), kept on the device in localStorage per event
// day so a reload or a closed tab loses none; sent in the order they were made when the connection returns.

/**
 * A scan waiting to be sent: the pass code, when it was scanned (the check-in keeps that moment) and the id the
 * device gave it (a resend of a scan whose answer was lost is then recognised; absent on scans queued before ids).
 */
export interface QueuedScan {
  code: string
  scannedAt: string
  scanId?: string
}

/** A new scan's id: random, from getRandomValues, which (unlike randomUUID) also works on a page served without TLS. */
export function newScanId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function keyOf(eventId: string, day: string): string {
  return `events-check-in-queue:${eventId}:${day}`
}

/** The scans waiting on this device for an event day, oldest first. */
export function queuedScans(eventId: string, day: string): QueuedScan[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(keyOf(eventId, day)) ?? '[]')
    return Array.isArray(stored) ? (stored as QueuedScan[]) : []
  } catch {
    return []
  }
}

/** Keeps a scan to send later. */
export function queueScan(eventId: string, day: string, scan: QueuedScan): void {
  localStorage.setItem(keyOf(eventId, day), JSON.stringify([...queuedScans(eventId, day), scan]))
}

/** Forgets a scan once the server has answered it (checked in, or refused). */
export function forgetQueuedScan(eventId: string, day: string, sent: QueuedScan): void {
  const rest = queuedScans(eventId, day).filter((scan) => !(scan.code === sent.code && scan.scannedAt === sent.scannedAt && scan.scanId === sent.scanId))
  if (rest.length === 0) localStorage.removeItem(keyOf(eventId, day))
  else localStorage.setItem(keyOf(eventId, day), JSON.stringify(rest))
}
