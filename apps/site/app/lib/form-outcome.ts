import { isRouteErrorResponse } from 'react-router'
import type { RefusalCode } from './refusals'

/** What a form action answers, rendered in the page without JavaScript and read by the enhanced form with it. */
export type FormOutcome<Values> =
  { status: 'success'; message: string } | { status: 'error'; code: string; message: string; fields: Record<string, string>; values: Partial<Values> }

/** The outcome's message for one field, when it has one. */
export function fieldError(outcome: FormOutcome<unknown> | undefined, name: string): string | undefined {
  return outcome?.status === 'error' ? outcome.fields[name] : undefined
}

/** The code of the outcome the browser makes up when a background post got no answer it could read. */
export const NETWORK_FAILURE = 'network'

/** The code of the outcome a form action answers when a fault of ours, not the visitor's input, stopped it. */
export const SERVER_FAULT = 'unavailable' satisfies RefusalCode

/** The reason shown for a server fault (after 'Failed to send message: ' on the contact form). */
export const SERVER_FAULT_MESSAGE = 'Our server could not take your submission just now. Please try again in a few minutes.'

/** The words shown when a registration submit got no answer (the specification's send-failure message). */
export const REGISTRATION_SEND_FAILURE = 'An error occurred while sending your registration. Please try again.'

/**
 * For a route's clientAction: the server action's answer, or `noAnswer` when the post got no readable answer
 * (offline, or refused before the action). Redirects and error responses go on to the router.
 */
export async function answerOr<Answer>(serverAction: () => Promise<unknown>, noAnswer: Answer): Promise<Answer> {
  try {
    return (await serverAction()) as Answer
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error
    return noAnswer
  }
}

/** answerOr with the 'network' error outcome the enquiry forms show as their network failure. */
export function orNetworkFailure<Values>(serverAction: () => Promise<unknown>): Promise<FormOutcome<Values>> {
  return answerOr<FormOutcome<Values>>(serverAction, {
    status: 'error',
    code: NETWORK_FAILURE,
    message: 'Network error. Please try again.',
    fields: {},
    values: {},
  })
}
