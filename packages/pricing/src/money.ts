// A double carries at least 15 significant decimal digits faithfully; anything beyond is binary noise
// (7990.55 * 100 is 799054.9999999999), so scaled values are cut back to 15 digits before rounding.
const FAITHFUL_DIGITS = 15

/** Converts an amount in rands to whole cents, rounding half-up (away from zero) without float drift. */
export function randsToCents(rands: number): number {
  if (!Number.isFinite(rands)) throw new RangeError(`Amount in rands must be a finite number, got ${rands}`)
  const scaled = Number((Math.abs(rands) * 100).toPrecision(FAITHFUL_DIGITS))
  const cents = Math.round(scaled)
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount in rands is too large: ${rands}`)
  return rands < 0 && cents !== 0 ? -cents : cents
}

// Thousands grouped by spaces ("8 990") or by commas ("8,990"), or not at all; a decimal point and one or two
// decimals may follow. With space groups (or none) a decimal comma is read too ("8 990,50"), as South Africa writes it.
const POINT_DECIMAL = /^(\d{1,3}(?: \d{3})+|\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/
const COMMA_DECIMAL = /^(\d{1,3}(?: \d{3})+|\d+),(\d{1,2})$/

/**
 * Reads an amount in rand as people type it ("8990", "8 990.00", "R 8,990.00", "R8 990,50") into whole cents;
 * undefined for anything else (letters, a minus sign, three decimals, groups of the wrong size).
 */
export function parseRandAmount(text: string): number | undefined {
  const amount = text
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .trim()
    .replace(/^(?:R|ZAR)\s*/i, '')
  const parts = POINT_DECIMAL.exec(amount) ?? COMMA_DECIMAL.exec(amount)
  if (!parts) return undefined
  const rands = Number((parts[1] ?? '').replace(/[ ,]/g, ''))
  const cents = rands * 100 + Number((parts[2] ?? '').padEnd(2, '0'))
  return Number.isSafeInteger(cents) ? cents : undefined
}

/** Formats cents for visitors: "R 9 763.50", with a space between thousands and "-R" for negative amounts. */
export function formatRand(cents: number): string {
  const { sign, rands, fraction } = splitCents(cents)
  const groupedRands = rands.replace(/\B(?=(\d{3})+$)/g, ' ')
  return `${sign}R ${groupedRands}.${fraction}`
}

/** Formats cents as a plain decimal amount for APIs and payment providers: "9763.50". */
export function formatAmount(cents: number): string {
  const { sign, rands, fraction } = splitCents(cents)
  return `${sign}${rands}.${fraction}`
}

/** Throws a RangeError unless the value is a whole number of cents. */
export function assertWholeCents(cents: number, what = 'Amount'): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${what} must be a whole number of cents, got ${cents}`)
}

function splitCents(cents: number): { sign: string; rands: string; fraction: string } {
  assertWholeCents(cents)
  const magnitude = Math.abs(cents)
  return {
    sign: cents < 0 ? '-' : '',
    rands: String(Math.trunc(magnitude / 100)),
    fraction: String(magnitude % 100).padStart(2, '0'),
  }
}
