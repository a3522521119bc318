import { checkInDelegate, doorToday, recordDeparture, undoCheckIn, type CheckInCounts, type DoorDelegate } from '@events/core'
import type { RouterContextProvider } from 'react-router'
import { formatAdminClock } from './admin-format'
import { formText, staffFormPost } from './admin.server'
import { backOfficeContext, refusalSentence, runStaffCommand } from './backoffice.server'

/**
 * What the door is told after a check-in or an undo: the outcome in words, the delegate as they now stand, the counts;
 * every answer carries the server's day (`today`), so a screen left open overnight moves to it.
 */
export type DoorAnswer = ({ ok: true; message: string; delegate: DoorDelegate; counts: CheckInCounts } | { ok: false; status: number; message: string }) & {
  today?: string
}

/**
 * Runs the check-in page's post (the page's own form without JavaScript, the desk's fetch with it): `intent` is
 * `check-in` (by `code` or `delegateId`, with `scannedAt` for a queued scan), `undo` or `leave` (a departure before the
 * day ends; both by `delegateId`).
 */
export async function doorPost(args: {
  request: Request
  context: Readonly<RouterContextProvider>
  params: { eventId: string }
}): Promise<{ answer: DoorAnswer; headers: Headers }> {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  const input = {
    eventId: args.params.eventId,
    day: formText(form, 'day'),
    code: formText(form, 'code'),
    delegateId: formText(form, 'delegateId'),
    scannedAt: formText(form, 'scannedAt'),
    scanId: formText(form, 'scanId'),
    reason: formText(form, 'reason'),
  }
  const today = doorToday(backOfficeContext(args.context))
  const intent = formText(form, 'intent')
  const command = intent === 'undo' ? undoCheckIn : intent === 'leave' ? recordDeparture : checkInDelegate
  const outcome = await runStaffCommand(args.context, user, command, input)
  if (!outcome.ok) return { answer: { ok: false, status: outcome.status, message: refusalSentence(outcome), today }, headers }
  const { delegate, counts } = outcome.value
  const message =
    intent === 'undo'
      ? `Check-in of ${delegate.name} undone.`
      : intent === 'leave' && delegate.left
        ? `${delegate.name} left at ${formatAdminClock(delegate.left.at)}: the certificate counts the sessions before.`
        : `${delegate.name} checked in.`
  return { answer: { ok: true, message, delegate, counts, today }, headers }
}
