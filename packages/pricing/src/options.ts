/** The registration options a visitor can choose; the keys are shared by the form, the API and the database. */
export type OptionKey = 'venue' | 'early-bird' | 'online' | 'table-5' | 'table-10'

/** Every option key, in the order the form lists them. */
export const OPTION_KEYS: readonly OptionKey[] = Object.freeze(['venue', 'early-bird', 'online', 'table-5', 'table-10'])

const TABLE_CAPS: Readonly<Partial<Record<OptionKey, number>>> = Object.freeze({ 'table-5': 5, 'table-10': 10 })

/** The outcome of checking a delegate count against the chosen option's cap. */
export type CapCheck = { ok: true } | { ok: false; cap: number; message: string }

/** Whether a value (for example from a request body) is one of the option keys. */
export function isOptionKey(value: unknown): value is OptionKey {
  return typeof value === 'string' && (OPTION_KEYS as readonly string[]).includes(value)
}

/** Whether the option is a table: a flat price for a capped number of delegates. */
export function isTableOption(key: OptionKey): boolean {
  return delegateCap(key) !== undefined
}

/** The most delegates the option admits, or undefined when it is priced per delegate and uncapped. */
export function delegateCap(key: OptionKey): number | undefined {
  assertOptionKey(key)
  return TABLE_CAPS[key]
}

/** The visitor-facing message for going over a cap, in the specification's wording. */
export function capMessage(cap: number): string {
  return `You can only add up to ${cap} delegates for this option.`
}

/** Checks the number of delegates against the cap of the chosen option; no option means no cap. */
export function checkDelegateCap(key: OptionKey | undefined, delegateCount: number): CapCheck {
  assertDelegateCount(delegateCount)
  const cap = key === undefined ? undefined : delegateCap(key)
  if (cap === undefined || delegateCount <= cap) return { ok: true }
  return { ok: false, cap, message: capMessage(cap) }
}

/** Throws a RangeError unless the value is one of the option keys. */
export function assertOptionKey(key: unknown): asserts key is OptionKey {
  if (!isOptionKey(key)) throw new RangeError(`Unknown option key: ${String(key)}`)
}

/** Throws a RangeError unless the value is a whole, non-negative number of delegates. */
export function assertDelegateCount(delegateCount: number): void {
  if (!Number.isSafeInteger(delegateCount) || delegateCount < 0) {
    throw new RangeError(`Delegate count must be a whole number of at least 0, got ${delegateCount}`)
  }
}
