import { optionAvailability, type EventSchedule } from './availability.ts'
import { isOptionKey, isTableOption, type OptionKey } from './options.ts'

/** A price option as the content stores it: the amount in cents excluding VAT. */
export interface ListedOption {
  key: string | null
  amountCents: number
  earlyBirdUntil?: string | null
}

/** What an event's hero and cards announce: the lowest price per delegate open now, and a running early-bird. */
export interface Headline {
  /** The lowest per-delegate price excluding VAT among the options that can be chosen now. */
  fromCents: number
  fromKey: OptionKey
  /** The last day (YYYY-MM-DD, Johannesburg) of an early-bird price that can still be chosen. */
  earlyBirdUntil?: string
}

/**
 * The "from R …" of an event now, or undefined when registration is closed or nothing is priced.
 * Tables are left out: their flat price is for a group, not what one delegate pays.
 */
export function headline(options: readonly ListedOption[], event: EventSchedule, now: Date): Headline | undefined {
  const open = options.filter(
    (option): option is ListedOption & { key: OptionKey } =>
      isOptionKey(option.key) &&
      !isTableOption(option.key) &&
      option.amountCents > 0 &&
      optionAvailability({ key: option.key, earlyBirdUntil: option.earlyBirdUntil }, event, now).available,
  )
  if (open.length === 0) return undefined
  const lowest = open.reduce((best, option) => (option.amountCents < best.amountCents ? option : best))
  const earlyBird = open.find((option) => option.key === 'early-bird' && option.earlyBirdUntil)
  return {
    fromCents: lowest.amountCents,
    fromKey: lowest.key,
    ...(earlyBird?.earlyBirdUntil ? { earlyBirdUntil: earlyBird.earlyBirdUntil } : {}),
  }
}
