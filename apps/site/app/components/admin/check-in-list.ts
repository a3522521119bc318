// The event's check-in list kept on a staff device (localStorage, per event day) so a scan made while the venue's
// Wi-Fi is down is judged at once: unknown, cancelled, already in, unpaid. Only what the door needs is kept (pass
// code, name, paid or not, cancelled, in today); it is refreshed while online and cleared on sign-out.
import type { DoorListEntry } from '@events/core'

const PREFIX = 'events-check-in-list:'

function keyOf(eventId: string, day: string): string {
  return `${PREFIX}${eventId}:${day}`
}

/** The list kept for an event day, or undefined when this device has none yet. */
export function storedDoorList(eventId: string, day: string): DoorListEntry[] | undefined {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(keyOf(eventId, day)) ?? 'null')
    return Array.isArray(stored) ? (stored as DoorListEntry[]) : undefined
  } catch {
    return undefined
  }
}

/** Keeps the server's list for an event day; the codes still waiting on this device stay marked as in. */
export function storeDoorList(eventId: string, day: string, entries: DoorListEntry[], waitingCodes: readonly string[]): void {
  const waiting = new Set(waitingCodes)
  const merged = entries.map((entry) => (waiting.has(entry.code) ? { ...entry, checkedIn: true } : entry))
  try {
    localStorage.setItem(keyOf(eventId, day), JSON.stringify(merged))
  } catch {
    // A full storage keeps the previous list: the door still judges by it.
  }
}

/** Marks a pass in or out on the kept list, after a check-in or an undo (online or provisional). */
export function markDoorListEntry(eventId: string, day: string, code: string, checkedIn: boolean): void {
  const list = storedDoorList(eventId, day)
  if (!list) return
  storeDoorList(
    eventId,
    day,
    list.map((entry) => (entry.code === code ? { ...entry, checkedIn } : entry)),
    [],
  )
}

/** Forgets every kept list on this device: on sign-out nothing of the delegates stays on the phone. */
export function clearDoorLists(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key)
}

/** How an offline scan is judged against the kept list. */
export type OfflineJudgement =
  | { kind: 'no-list' }
  | { kind: 'unknown' }
  | { kind: 'cancelled'; entry: DoorListEntry }
  | { kind: 'already-in'; entry: DoorListEntry }
  | { kind: 'admit'; entry: DoorListEntry }

/** Judges a normalised pass code by the kept list of the day. */
export function judgeOffline(list: DoorListEntry[] | undefined, code: string | undefined): OfflineJudgement {
  if (!list) return { kind: 'no-list' }
  const entry = code ? list.find((candidate) => candidate.code === code) : undefined
  if (!entry) return { kind: 'unknown' }
  if (entry.cancelled) return { kind: 'cancelled', entry }
  if (entry.checkedIn) return { kind: 'already-in', entry }
  return { kind: 'admit', entry }
}
