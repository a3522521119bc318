import { delegateCap, isOptionKey } from '@events/pricing'

type PriceOptionFields = { key?: string; earlyBirdUntil?: string; cap?: number }

/** Why the early-bird date is wrong for the option's key, or true: required for early-bird, not allowed otherwise. */
export function checkEarlyBirdDate(option: PriceOptionFields | undefined): true | string {
  const isEarlyBird = option?.key === 'early-bird'
  if (isEarlyBird && !option?.earlyBirdUntil) return 'Early-bird options need the last day to register and pay'
  if (!isEarlyBird && option?.earlyBirdUntil) return 'Only early-bird options have an early-bird date; remove it'
  return true
}

/** Why the delegate cap is wrong for the option's key, or true: tables carry their own size, other options none. */
export function checkCap(option: PriceOptionFields | undefined): true | string {
  const expected = isOptionKey(option?.key) ? delegateCap(option.key) : undefined
  if (expected === undefined) return option?.cap === undefined ? true : 'Only table options have a delegate cap; remove it'
  return option?.cap === expected ? true : `A ${option?.key} option admits exactly ${expected} delegates`
}
