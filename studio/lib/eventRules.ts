import { dateInEventTimeZone, isAfter } from './dates.ts'

/** The fields of a referenced price option that event-level rules look at. */
export type ReferencedPriceOption = { _id: string; key?: string; earlyBirdUntil?: string }

/** Why the end is wrong, or true: the event must end after it starts. */
export function checkEnd(start: string | undefined, end: string | undefined): true | string {
  if (!start || !end) return true
  return isAfter(end, start) ? true : 'The event must end after it starts'
}

/** Why the registration closing time is wrong, or true: registration cannot close after the event has ended. */
export function checkRegistrationClose(closesAt: string | undefined, end: string | undefined): true | string {
  if (!closesAt || !end) return true
  return isAfter(closesAt, end) ? 'Registration must close on or before the end of the event' : true
}

/** Why the event's price options conflict, or true: one option per key, and every early-bird date before the event's first day. */
export function checkPriceOptions(options: ReferencedPriceOption[], start: string | undefined): true | string {
  const keys = options.map((option) => option.key).filter((key): key is string => Boolean(key))
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index)
  if (duplicate) return `The event has more than one "${duplicate}" option`
  if (!start) return true
  const firstDay = dateInEventTimeZone(start)
  const late = options.find((option) => option.key === 'early-bird' && option.earlyBirdUntil && option.earlyBirdUntil >= firstDay)
  return late ? `The early-bird date ${late.earlyBirdUntil} must be before the event starts (${firstDay})` : true
}

/** A warning text when a workshop offers table options (tables are sold for conferences), or true. */
export function checkTablesOnWorkshop(kind: string | undefined, options: ReferencedPriceOption[]): true | string {
  const offersTables = options.some((option) => option.key === 'table-5' || option.key === 'table-10')
  return kind === 'workshop' && offersTables ? 'Table options are normally offered on conferences only' : true
}
