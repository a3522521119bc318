const EVENT_KINDS = ['conference', 'workshop'] as const
export type EventKind = (typeof EVENT_KINDS)[number]

function isEventKind(value: string | undefined): value is EventKind {
  return (EVENT_KINDS as readonly (string | undefined)[]).includes(value)
}

/**
 * The kind of event a route serves, from the pattern React Router matched (`conference/:slug`): routes.ts declares
 * each event route once per kind, and the pattern, unlike the visitor's path, does not depend on how it was typed.
 */
export function eventKindOfRoute(pattern: string): EventKind {
  const kind = pattern.replace(/^\/+/, '').split('/')[0]
  if (!isEventKind(kind)) throw new Error(`${pattern} is not an event route: its first segment is not one of ${EVENT_KINDS.join(', ')}`)
  return kind
}
